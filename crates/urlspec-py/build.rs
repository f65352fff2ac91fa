//! PyO3's `Py_3_*` cfgs for this crate (src/fastpy.rs reads a compact
//! ASCII string's data in place where the interpreter's layout is known).
fn main() {
    pyo3_build_config::use_pyo3_cfgs();
}
