//! Closed sets of values that travel as fixed strings — in JSON, in SQLite columns,
//! in URLs and CLI flags. Each is an enum so that a typo is a compile error and a
//! `match` lists every case, while the wire keeps the strings it always had.

/// Declares an enum whose variants serialise (serde, `Display`, `FromStr`,
/// `as_str`) as the given strings: `closed_set! { pub enum Access { ReadOnly =
/// "read-only", ReadWrite = "read-write" } }`. Attributes on the enum and its
/// variants (doc comments, `#[default]` with `#[derive(Default)]`) pass through.
#[macro_export]
macro_rules! closed_set {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        $vis enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant ),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value as it is written on the wire and in the database.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The value written as `text` (exactly, as `as_str` writes it).
            pub fn parse(text: &str) -> Option<$name> {
                match text {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                $name::parse(text).ok_or_else(|| {
                    let all: Vec<&str> = $name::ALL.iter().map(|v| v.as_str()).collect();
                    format!("{text:?} is not one of {}", all.join(", "))
                })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    closed_set! {
        /// A test set.
        #[derive(Default)]
        pub enum Colour {
            #[default]
            Red = "red",
            DarkBlue = "dark-blue",
        }
    }

    #[test]
    fn strings_round_trip_everywhere() {
        assert_eq!(Colour::DarkBlue.as_str(), "dark-blue");
        assert_eq!(Colour::parse("red"), Some(Colour::Red));
        assert_eq!("dark-blue".parse::<Colour>(), Ok(Colour::DarkBlue));
        assert!(
            "blue"
                .parse::<Colour>()
                .unwrap_err()
                .contains("red, dark-blue")
        );
        assert_eq!(
            serde_json::to_string(&Colour::DarkBlue).unwrap(),
            "\"dark-blue\""
        );
        assert_eq!(
            serde_json::from_str::<Colour>("\"red\"").unwrap(),
            Colour::default()
        );
        assert!(serde_json::from_str::<Colour>("\"Red\"").is_err());
        assert_eq!(Colour::ALL.len(), 2);
    }
}
