use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Embedding runs one forward pass per core at a time (`index::embed`), each on
    // its own thread. candle would also split every op of a pass over a shared,
    // locked pool of spinning threads; two passes then queue on that pool's lock
    // and spin (a fifth of the CPU under load). One thread per pass, unless the
    // operator says otherwise.
    //
    // candle also asks `RAYON_NUM_THREADS` before every matrix product and, when it
    // is unset, counts the physical cores by parsing /proc/cpuinfo each time
    // (`perf` at 200 streams: a few percent of the CPU in the kernel printing
    // that file); at 1 the products run serially, as they do in the one-thread
    // pools anyway. The process's other parallel work (planning an index run,
    // building the HNSW) runs in pools of its own size.
    for var in ["CANDLE_NUM_THREADS", "RAYON_NUM_THREADS"] {
        if std::env::var_os(var).is_none() {
            // SAFETY: first statement of main, before any thread exists.
            unsafe { std::env::set_var(var, "1") };
        }
    }
    let cli = registry_chat::cli::Cli::parse();
    match registry_chat::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
