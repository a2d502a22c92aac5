//! Names to OIDs, as net-snmp reads them: `MODULE::name.index`, a name alone, a dotted path
//! of labels and numbers, the best match of a regular expression (`-Ib`).

use super::*;

impl Mibs {
    /// `IF-MIB::ifDescr.3`, `ifDescr.3`, `vacmGroupName.3."aesuser"` or `ifDescr` to an OID:
    /// the instance after a column read by its row's INDEX ([`index::read_instance`]).
    pub fn name_to_oid(&self, input: &str) -> Result<Vec<u32>, NameError> {
        let (module, rest) = match input.split_once("::") {
            Some((m, r)) => (Some(m), r),
            None => (None, input),
        };
        let (name, suffix) = match rest.split_once('.') {
            Some((n, s)) => (n, Some(s)),
            None => (rest, None),
        };
        if let Some(m) = module.filter(|m| !self.set.by_name.contains_key(*m)) {
            return Err(NameError::NoModule {
                module: m.to_string(),
                path: self.path(),
            });
        }
        let unknown = || match module {
            Some(_) => NameError::Unknown(None),
            None => NameError::Unknown(Some(format!("Sub-id not found: (top) -> {name}"))),
        };
        let candidates: Vec<usize> = self.named(name).collect();
        if let (None, Some(enterprise)) = (candidates.first(), name.strip_suffix('#')) {
            return self
                .below_trap_arc(module, enterprise, suffix)
                .ok_or_else(unknown)?;
        }
        let Some(&first) = candidates.first() else {
            // The roots no module defines (X.660): ccitt(0), iso(1), joint-iso-ccitt(2).
            let arc = root_arc(name)
                .filter(|_| module.is_none())
                .ok_or_else(unknown)?;
            return self.below_root(name, arc, suffix);
        };
        let node = match module {
            Some(m) => *candidates
                .iter()
                .find(|&&c| self.module_name(c) == m)
                .ok_or_else(unknown)?,
            None => first,
        };
        let oid = self.resolved.oid(&self.resolved.nodes[node]);
        match suffix {
            Some(suffix) => self.below_node(node, oid, suffix),
            None => Ok(oid),
        }
    }

    /// `enterprise#` (net-snmp's name for the `.0` above an SMIv1 enterprise's TRAP-TYPEs, in
    /// the traps' `module`) and `suffix` below it: a trap by name or number, then plain arcs.
    /// `None` when no such arc is known; an error when the arcs after it are no numbers.
    fn below_trap_arc(
        &self,
        module: Option<&str>,
        enterprise: &str,
        suffix: Option<&str>,
    ) -> Option<Result<Vec<u32>, NameError>> {
        let (mut oid, trap) = self.named(enterprise).find_map(|e| {
            let mut oid = self.resolved.oid(&self.resolved.nodes[e]);
            oid.push(0);
            let (_, trap) = self.trap_arc(&oid)?;
            Some((oid, trap))
        })?;
        if module.is_some_and(|m| m != self.module_name(trap)) {
            return None;
        }
        let Some(suffix) = suffix else {
            return Some(Ok(oid));
        };
        let (token, rest) = suffix
            .split_once('.')
            .map_or((suffix, None), |(t, r)| (t, Some(r)));
        let child = self
            .children(&oid)
            .find(|&(arc, c)| self.label(c) == token || token.parse() == Ok(arc));
        Some(match child {
            Some((arc, node)) => {
                oid.push(arc);
                match rest {
                    Some(rest) => self.below_node(node, oid, rest),
                    None => Ok(oid),
                }
            }
            None => index::read_instance(suffix, &[], Some(enterprise))
                .map(|arcs| [oid, arcs].concat())
                .map_err(|e| NameError::Unknown(Some(e))),
        })
    }

    /// The OID of `suffix` below a root no module names (`iso.org.dod...`, `iso.3.6.1`):
    /// down through the tree by numbers or labels to the first node a module defines, then on
    /// from that node. As net-snmp reads it: below a point with nothing under it (a root no
    /// loaded module extends) the rest is plain arcs, and a number nothing is under ends the
    /// descent, the rest then plain arcs below the last point.
    pub(super) fn below_root(
        &self,
        root: &str,
        arc: u32,
        suffix: Option<&str>,
    ) -> Result<Vec<u32>, NameError> {
        let mut oid = vec![arc];
        let mut rest = suffix;
        let mut parent = root.to_string();
        let plain = |oid: &mut Vec<u32>, text: &str, below: Option<&str>| {
            let arcs = index::read_instance(text, &[], below);
            oid.extend(arcs.map_err(|e| NameError::Unknown(Some(e)))?);
            Ok(std::mem::take(oid))
        };
        while let Some(text) = rest {
            if !self.has_children(&oid) {
                return plain(&mut oid, text, None);
            }
            let (token, after) = text
                .split_once('.')
                .map_or((text, None), |(t, a)| (t, Some(a)));
            let arc = match token.parse::<u32>() {
                Ok(arc) if token.starts_with(|c: char| c.is_ascii_digit()) => {
                    let below = [oid.as_slice(), &[arc]].concat();
                    if self.lookup().by_oid.get(&below).is_none() && !self.has_children(&below) {
                        return plain(&mut oid, text, Some(&parent));
                    }
                    arc
                }
                _ if token.starts_with(|c: char| c.is_ascii_digit()) => {
                    return plain(&mut oid, text, Some(&parent));
                }
                _ => self
                    .children(&oid)
                    .find(|&(_, c)| self.set.name(&self.resolved.nodes[c]) == token)
                    .map(|(arc, _)| arc)
                    .ok_or_else(|| {
                        NameError::Unknown(Some(format!("Sub-id not found: {parent} -> {token}")))
                    })?,
            };
            oid.push(arc);
            rest = after;
            if let Some(node) = self.lookup().by_oid.get(oid.as_slice()) {
                return match rest {
                    Some(rest) => self.below_node(node, oid, rest),
                    None => Ok(oid),
                };
            }
            parent = arc.to_string();
        }
        Ok(oid)
    }

    /// The OID of `suffix` below `node` (at `oid`): the path of labels or numbers through
    /// its children, then the instance (its row's INDEX when it is a column).
    pub(super) fn below_node(
        &self,
        node: usize,
        mut oid: Vec<u32>,
        suffix: &str,
    ) -> Result<Vec<u32>, NameError> {
        let (node, rest) = self.descend(node, &mut oid, suffix)?;
        let Some(rest) = rest else {
            return Ok(oid);
        };
        // After a leaf, its row's INDEX when it is a column; after a node with children,
        // plain arcs.
        let arcs = match self.has_children(&self.resolved.oid(&self.resolved.nodes[node])) {
            true => {
                index::read_instance(rest, &[], Some(self.set.name(&self.resolved.nodes[node])))
            }
            false => {
                let index = self.instance_index(node, &oid).filter(|(_, row)| !row);
                index::read_instance(rest, index.map_or(&[], |(i, _)| i), None)
            }
        };
        oid.extend(arcs.map_err(|e| NameError::Unknown(Some(e)))?);
        Ok(oid)
    }

    /// A dotted OID that is not plain numbers (`.1.3.6.1.2.1.1."ab"`, or one with a bad arc),
    /// read as net-snmp reads it: a path from the top of the tree, numbers taken as the arcs
    /// of the nodes they reach, then an instance as the node's INDEX or plain arcs. The error
    /// says why as net-snmp does (`.1.3.x.4`: `Sub-id not found: org -> x`;
    /// `.1.3.6.1.2.1.2.2.1.2.x`: `Index out of range: x (ifIndex)`; past a leaf,
    /// `sysName.0.x`'s `(x)`).
    pub fn dotted_to_oid(&self, text: &str) -> Result<Vec<u32>, String> {
        let path = text.trim_start_matches('.');
        // net-snmp keeps the low 32 bits of such an arc; it is refused here.
        let all_digits = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        if let Some(digits) = path
            .split('.')
            .find(|p| all_digits(p) && p.parse::<u32>().is_err())
        {
            return Err(format!("{digits}: an arc over 32 bits, at most 4294967295"));
        }
        let (first, rest) = path
            .split_once('.')
            .map_or((path, None), |(f, r)| (f, Some(r)));
        let root = first.parse::<u32>().ok().and_then(|arc| {
            let name = ROOTS.get(usize::try_from(arc).ok()?)?;
            Some((*name, arc))
        });
        let read = match root {
            Some((name, arc)) => self.below_root(name, arc, rest),
            None => index::read_instance(path, &[], Some("(top)"))
                .map_err(|e| NameError::Unknown(Some(e))),
        };
        match read {
            Ok(arcs) if (2..=snmp_ber::MAX_OID_ARCS).contains(&arcs.len()) => Ok(arcs),
            Ok(_) => Err("too many arcs, or a start no OID has".into()),
            Err(NameError::Unknown(Some(why))) => Err(why),
            Err(e) => Err(e.say(text)),
        }
    }

    /// From `node` (at `oid`) down through its children as `text` names them (`system.sysDescr`,
    /// `ifTable.1.2`), as net-snmp reads a name: the deepest node reached and what is left of
    /// the text (`None`: nothing). A number that no child has is taken as an arc, and ends the
    /// descent.
    pub(super) fn descend<'t>(
        &self,
        mut node: usize,
        oid: &mut Vec<u32>,
        text: &'t str,
    ) -> Result<(usize, Option<&'t str>), NameError> {
        let mut rest = Some(text);
        while let Some(text) = rest.filter(|_| self.has_children(oid)) {
            let (token, after) = text
                .split_once('.')
                .map_or((text, None), |(t, a)| (t, Some(a)));
            let parent = self.set.name(&self.resolved.nodes[node]);
            let refused =
                || NameError::Unknown(Some(format!("Sub-id not found: {parent} -> {token}")));
            let arc = match token.parse::<u32>() {
                Ok(arc) if token.starts_with(|c: char| c.is_ascii_digit()) => arc,
                _ if token.starts_with(|c: char| c.is_ascii_digit()) => return Err(refused()),
                _ => match self
                    .children(oid)
                    .find(|&(_, c)| self.set.name(&self.resolved.nodes[c]) == token)
                {
                    Some((arc, _)) => arc,
                    None => return Err(refused()),
                },
            };
            oid.push(arc);
            rest = after;
            match self.lookup().by_oid.get(oid.as_slice()) {
                Some(child) => node = child,
                None => return Ok((node, rest)),
            }
        }
        Ok((node, rest))
    }

    /// net-snmp's `-Ib`: the node whose name `find` (where a pattern matches in a name, as
    /// snmptranslate's POSIX extended regular expression in any case) matches earliest in
    /// the name, the first such in OID order; `None` when no name matches. (net-snmp takes
    /// the first in its tree's own order, which is not OID order: where several names match
    /// equally early, it may pick another of them.)
    pub fn best_match(&self, find: impl Fn(&str) -> Option<usize>) -> Option<Vec<u32>> {
        let mut best: Option<(usize, Vec<u32>)> = None;
        for (oid, node) in self.lookup().by_oid.iter() {
            let Some(at) = find(self.set.name(&self.resolved.nodes[node])) else {
                continue;
            };
            if best.as_ref().is_none_or(|(b, _)| at < *b) {
                best = Some((at, oid));
                if at == 0 {
                    break;
                }
            }
        }
        best.map(|(_, oid)| oid)
    }

    /// snmptranslate's `-TB`: the OIDs of the nodes `find` (where a pattern matches in a
    /// name, as [`Mibs::best_match`] takes it) finds, as net-snmp finds them: its search goes down the tree
    /// (each node's children from its highest arc down) over the nodes no earlier search
    /// looked at, stops at the first name the pattern matches at its start and gives that
    /// node, or at the tree's end gives the node whose name it matched earliest; it is asked
    /// again until it gives nothing. So every name that starts with a match is listed, and
    /// after them at most one that matches later on (`-TB Octets` lists ifInOctets alone).
    pub fn matching(&self, find: impl Fn(&str) -> Option<usize>) -> Vec<Vec<u32>> {
        // Every node in the search's order, with where the pattern matches its name.
        let mut order: Vec<(Vec<u32>, Option<usize>)> = Vec::new();
        // Depth first, the highest arc first: the stack takes the lowest first.
        let mut stack: Vec<Vec<u32>> = (0..ROOTS.len() as u32).map(|r| vec![r]).collect();
        while let Some(oid) = stack.pop() {
            let named = self.lookup().by_oid.get(&oid).map(|n| self.label(n));
            let at = named.and_then(&find);
            stack.extend(self.children(&oid).map(|(arc, _)| {
                let mut child = oid.clone();
                child.push(arc);
                child
            }));
            order.push((oid, at));
        }
        let mut found = Vec::new();
        let mut next = 0;
        while next < order.len() {
            // (where the pattern matched, which node): the earliest match so far.
            let mut best: Option<(usize, usize)> = None;
            let mut i = next;
            while let Some((_, at)) = order.get(i) {
                if let Some(at) = *at {
                    if best.is_none_or(|(b, _)| at < b) {
                        best = Some((at, i));
                    }
                    if at == 0 {
                        break;
                    }
                }
                i += 1;
            }
            next = i + 1;
            match best {
                Some((_, node)) => found.push(order[node].0.clone()),
                None => break,
            }
        }
        found
    }
}
