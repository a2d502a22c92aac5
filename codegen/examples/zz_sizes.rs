fn main() {
    use snmp_codegen::*;
    println!("Node {}", std::mem::size_of::<smi::Node>());
    println!("OidValue {}", std::mem::size_of::<smi::OidValue>());
    println!("MibNode {}", std::mem::size_of::<mib::MibNode>());
    println!("TypeDef {}", std::mem::size_of::<smi::TypeDef>());
    println!("NodeExtra {}", std::mem::size_of::<smi::NodeExtra>());
}
