//! Timestamps as people read them: "14:03" today, "Nov 21, 14:03" otherwise.

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

fn format(d: &js_sys::Date) -> String {
    let now = js_sys::Date::new_0();
    let hm = format!("{:02}:{:02}", d.get_hours(), d.get_minutes());
    if d.get_full_year() == now.get_full_year()
        && d.get_month() == now.get_month()
        && d.get_date() == now.get_date()
    {
        hm
    } else {
        format!(
            "{} {}, {hm}",
            MONTHS[(d.get_month() as usize).min(11)],
            d.get_date()
        )
    }
}

pub fn now() -> String {
    format(&js_sys::Date::new_0())
}

/// From the server's ISO 8601 UTC timestamps.
pub fn from_iso(iso: &str) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_str(iso));
    if d.get_time().is_nan() {
        iso.to_string()
    } else {
        format(&d)
    }
}

/// Milliseconds since the page loaded (for time-to-first-token).
pub fn ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}
