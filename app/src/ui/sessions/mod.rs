//! Past conversations: kept on the server, titled, renamable and deletable; each
//! has its own URL (`/c/:id`).

mod sidebar;

pub use sidebar::Sidebar;
