//! The detail drawer: one codebundle in full (tasks and SLIs with their docs,
//! variables with defaults, the README rendered safely, files), over the
//! conversation without leaving it. Esc or the close button closes it.

use crate::api::catalog::{BundleDetail, TaskInfo};
use crate::api::functions::get_bundle;
use crate::api::vocabulary::Part;
use crate::ui::markdown::Markdown;
use crate::ui::state::Shared;
use leptos::html::Button;
use leptos::prelude::*;

#[component]
pub fn Drawer() -> impl IntoView {
    let shared = Shared::get();
    let open = move || shared.drawer.get();
    let detail = LocalResource::new(move || {
        let key = shared.drawer.get();
        async move {
            let key = key?;
            let (collection, slug) = key.split_once('/')?;
            Some(get_bundle(collection.to_string(), slug.to_string()).await)
        }
    });
    let close_button = NodeRef::<Button>::new();
    // Focus moves into the drawer when it opens (and back to the page on close).
    Effect::new(move |_| {
        if shared.drawer.get().is_some()
            && let Some(b) = close_button.get()
        {
            let _ = b.focus();
        }
    });

    view! {
        <Show when=move || open().is_some()>
            <div class="scrim" on:click=move |_| shared.drawer.set(None)></div>
            <div class="drawer" role="dialog" aria-modal="true" aria-labelledby="drawer-title" data-testid="drawer">
                <div class="drawer-head">
                    <h2 id="drawer-title">{move || {
                        match detail.get().flatten() {
                            Some(Ok(d)) => d.summary.header.display_name,
                            _ => open().unwrap_or_default(),
                        }
                    }}</h2>
                    <button type="button" class="icon-button" node_ref=close_button data-testid="drawer-close"
                        aria-label="Close details" on:click=move |_| shared.drawer.set(None)>{crate::ui::icons::close()}</button>
                </div>
                <div class="drawer-body" tabindex="0" role="region" aria-label="Bundle details">
                    {move || match detail.get() {
                        None | Some(None) => view! { <p class="loading">"Loading…"</p> }.into_any(),
                        Some(Some(Err(e))) => view! { <p class="error" role="alert">{e.message}</p> }.into_any(),
                        Some(Some(Ok(d))) => view! { <Detail d=d /> }.into_any(),
                    }}
                </div>
            </div>
        </Show>
    }
}

fn task_list(title: String, tasks: Vec<TaskInfo>, testid: &'static str) -> impl IntoView {
    (!tasks.is_empty()).then(|| view! {
        <section data-testid=testid>
            <h3>{title} " " <span class="muted">{format!("({})", tasks.len())}</span></h3>
            <ul class="task-list">
                {tasks.into_iter().map(|t| {
                    let rw = t.access == crate::api::catalog::Access::ReadWrite;
                    view! {
                        <li>
                            <div class="task-name">
                                {t.name.clone()}
                                {rw.then(|| view! { <span class="badge access rw">"changes things"</span> })}
                            </div>
                            {(!t.doc.trim().is_empty()).then(|| view! { <p class="task-doc">{t.doc.clone()}</p> })}
                            {t.url.clone().map(|u| view! {
                                <a class="link small" href=u target="_blank" rel="noopener noreferrer">
                                    {format!("{}:{}", t.file, t.line_start)}
                                </a>
                            })}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    })
}

#[component]
fn Detail(d: BundleDetail) -> impl IntoView {
    let s = d.summary.clone();
    let vocabulary = Shared::get().vocabulary.get_untracked();
    let readme = d.readme.clone().unwrap_or_default();
    let has_readme = !readme.trim().is_empty();
    view! {
        <p class="drawer-description">{s.description.clone()}</p>
        <div class="badges">
            <span class="badge">{s.collection.clone()}</span>
            <span class="badge platform">{s.platform.clone()}</span>
            <span class=if s.access == crate::api::catalog::Access::ReadWrite { "badge access rw" } else { "badge access ro" }>{s.access.as_str()}</span>
            {s.source_url.clone().map(|u| view! {
                <a class="link" href=u target="_blank" rel="noopener noreferrer">"Source ↗"</a>
            })}
        </div>
        {task_list(vocabulary.heading(Part::Task), s.tasks.clone(), "drawer-tasks")}
        {task_list(vocabulary.heading(Part::Sli), s.slis.clone(), "drawer-slis")}
        {(!d.variables.is_empty()).then(|| view! {
            <section data-testid="drawer-variables">
                <h3>"Variables"</h3>
                <table class="vars">
                    <thead><tr><th>"Name"</th><th>"Kind"</th><th>"Default"</th><th>"Description"</th></tr></thead>
                    <tbody>
                        {d.variables.iter().map(|v| view! {
                            <tr>
                                <td><code>{v.name.clone()}</code>{v.required.then(|| view! { <span class="badge required">"required"</span> })}</td>
                                <td>{v.kind.as_str()}</td>
                                <td>{v.default.clone().map(|x| view! { <code>{x}</code> })}</td>
                                <td>{v.description.clone().unwrap_or_default()}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </section>
        })}
        {has_readme.then(|| view! {
            <section class="readme" data-testid="drawer-readme">
                <h3>"README"</h3>
                <Markdown source=readme.clone() base=4 />
            </section>
        })}
        {(!d.files.is_empty()).then(|| view! {
            <section data-testid="drawer-files">
                <h3>"Files"</h3>
                <ul class="files">
                    {d.files.iter().map(|f| view! {
                        <li>
                            {match f.url.clone() {
                                Some(u) => view! { <a class="link" href=u target="_blank" rel="noopener noreferrer">{f.path.clone()}</a> }.into_any(),
                                None => view! { <code>{f.path.clone()}</code> }.into_any(),
                            }}
                            <span class="muted">{format!(" {} B", f.size)}</span>
                        </li>
                    }).collect_view()}
                </ul>
            </section>
        })}
    }
}
