//! Conceptual rows: per row, a struct with one `Option` field per column, its INDEX decoded
//! into a struct of its own, and the `Row` implementation a table walk fills it through.

use std::collections::HashSet;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{camel_case, ident, u32_slice, unique_field, ModuleGen};
use crate::mib::ir::{Object, Role};
use crate::mib::tree::Access;

/// A row's INDEX as Rust: its fields, how each is read, their names.
struct IndexParts {
    fields: Vec<TokenStream>,
    reads: Vec<TokenStream>,
    names: Vec<proc_macro2::Ident>,
}

/// A row's columns as Rust: their fields, initialisers, and `set_column` arms.
#[derive(Default)]
struct Columns {
    fields: Vec<TokenStream>,
    inits: Vec<TokenStream>,
    arms: Vec<TokenStream>,
}

impl ModuleGen<'_> {
    /// The INDEX fields of `entry`; when it cannot be typed, the instance suffix as it came,
    /// and why in its doc.
    fn index_parts(&self, entry: &Object) -> IndexParts {
        let mut seen = HashSet::new();
        let mut parts = IndexParts {
            fields: Vec::new(),
            reads: Vec::new(),
            names: Vec::new(),
        };
        let typed = entry.index.clone().and_then(|items| {
            for item in &items {
                let (fty, read) =
                    self.index_reader(&item.syntax, item.implied)
                        .ok_or_else(|| {
                            let base = match item.syntax.base.as_str() {
                                "" => "unresolved",
                                b => b,
                            };
                            format!(
                                "INDEX object `{}` has a SYNTAX ({base}) that cannot be an index",
                                item.name
                            )
                        })?;
                let f = unique_field(&mut seen, &item.name);
                let d = format!(
                    " `{}`{}",
                    item.name,
                    if item.implied { " (IMPLIED)" } else { "" }
                );
                parts.fields.push(quote!(#[doc = #d] pub #f: #fty,));
                parts.reads.push(quote!(let #f = #read;));
                parts.names.push(f);
            }
            Ok(())
        });
        if let Err(why) = typed {
            let d = format!(" The instance OID after the column, undecoded: {why}.");
            parts.fields = vec![quote!(#[doc = #d] pub raw: Vec<u32>,)];
            parts.reads = vec![quote!(let raw = r.rest();)];
            parts.names = vec![ident("raw")];
        }
        parts
    }

    /// The columns of the row at `position` in the module's objects.
    fn columns(&self, position: usize) -> Columns {
        let mut out = Columns::default();
        let mut used = HashSet::from(["index".to_string(), "invalid".to_string()]);
        let mut numbers = HashSet::new();
        for col in &self.module.objects {
            let Role::Column { entry, number } = col.role else {
                continue;
            };
            if entry != position || col.access == Some(Access::NotAccessible) {
                // Not this row's; or never in a response: an INDEX component, decoded into
                // `index`.
                continue;
            }
            if !numbers.insert(number) {
                // A second object at the same column number (a vendor module's slip): values
                // at that OID are the first one's; the second is not a field.
                continue;
            }
            let Some(rv) = col
                .syntax
                .as_ref()
                .and_then(|syn| self.rust_value(syn, Some(&col.name)))
            else {
                continue;
            };
            let number = Literal::u32_unsuffixed(number);
            let f = unique_field(&mut used, &col.name);
            let d = self.object_doc(col);
            let (fty, conv) = (rv.ty, rv.convert);
            let col_name = format!("{}::{}", self.module.name, col.name);
            out.fields.push(quote!(#d pub #f: Option<#fty>,));
            out.inits.push(quote!(#f: None,));
            out.arms.push(quote!(#number => {
                const NAME: &str = #col_name;
                self.#f = Some(#conv);
            }));
        }
        out
    }

    /// The row struct, its INDEX struct and its `Row` implementation, for the row `entry` at
    /// `position` in the module's objects.
    pub(super) fn row(&mut self, position: usize, entry: &Object) -> TokenStream {
        let name = self.unique_type(camel_case(&entry.name));
        let ty = ident(&name);
        let index_ty = ident(&self.unique_type(format!("{name}Index")));
        let full = format!("{}::{}", self.module.name, entry.name);
        let IndexParts {
            fields: idx_fields,
            reads: idx_reads,
            names: idx_names,
        } = self.index_parts(entry);
        let Columns {
            fields,
            inits,
            arms,
        } = self.columns(position);
        let d = self.object_doc(entry);
        let entry_lit = u32_slice(&entry.oid);
        let agent = self.agent.then(|| self.agent_row(position, entry, &ty));
        let idx_doc = format!(
            " The INDEX of `{}`, decoded from an instance OID.",
            entry.name
        );
        quote! {
            #d
            #[derive(Debug, Clone, PartialEq)]
            pub struct #ty {
                /// The row's INDEX.
                pub index: #index_ty,
                #(#fields)*
                /// Columns whose values did not fit their SYNTAX, as received (a lenient walk
                /// leaves them unset above and marks them here).
                pub invalid: Vec<Invalid>,
            }

            #[doc = #idx_doc]
            #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
            pub struct #index_ty {
                #(#idx_fields)*
            }

            impl Row for #ty {
                type Index = #index_ty;
                const NAME: &'static str = #full;
                const ENTRY: &'static [u32] = #entry_lit;

                fn decode_index(suffix: &[u32]) -> Result<Self::Index, MibError> {
                    let mut r = IndexReader::new(Self::NAME, suffix);
                    #(#idx_reads)*
                    r.finish()?;
                    Ok(#index_ty { #(#idx_names),* })
                }

                fn new(index: Self::Index) -> Self {
                    #ty { index, #(#inits)* invalid: Vec::new() }
                }

                fn mark_invalid(&mut self, invalid: Invalid) {
                    self.invalid.push(invalid);
                }

                // One column makes a single-arm match; none leaves `column` unused.
                #[allow(unused_variables, clippy::single_match)]
                fn set_column(&mut self, column: u32, v: &VarBindValue<'_>) -> Result<(), MibError> {
                    if is_absent(v) {
                        return Ok(());
                    }
                    match column {
                        #(#arms)*
                        _ => {}
                    }
                    Ok(())
                }
            }

            #agent
        }
    }
}
