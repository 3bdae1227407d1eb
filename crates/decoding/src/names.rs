//! Name enums written once: each variant with the name it travels by (HF's,
//! llama-server's or llama.cpp's), and from that list `ALL`, `name()`,
//! `Display`, `FromStr` and serde's renames.

/// Generates a name enum: variants, `ALL`, `name()`, `Display` and `FromStr`
/// from one list, so a name is written once.
macro_rules! names {
    (
        $(#[$meta:meta])* $vis:vis enum $ty:ident {
            $($(#[$vmeta:meta])* $variant:ident = $name:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, ::serde::Serialize, ::serde::Deserialize)]
        $vis enum $ty {
            $($(#[$vmeta])* #[serde(rename = $name)] $variant,)*
        }

        impl $ty {
            /// Every name, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant,)*];

            /// The name as HF (and this project's JSON) spells it.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)*
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::names::UnknownName;
            fn from_str(s: &str) -> Result<Self, $crate::names::UnknownName> {
                match s {
                    $($name => Ok($ty::$variant),)*
                    _ => Err($crate::names::UnknownName(s.to_string())),
                }
            }
        }
    };
}
pub(crate) use names;

/// A name that is not one of a name enum's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a known name")]
pub struct UnknownName(pub String);
