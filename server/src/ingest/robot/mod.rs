//! A Robot Framework parser for the space- and pipe-separated formats, written to
//! give the same task lists as Robot's own parser (no Python at run time).

mod model;
mod parse;
mod runners;
mod tokenize;
mod writes;

pub use model::{
    CallSite, KeywordDef, LibraryImport, ParseWarning, RobotFile, TaskDef, VarImport, VarKind,
    normalize,
};
pub use parse::parse;
