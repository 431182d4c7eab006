//! One value per side of the board.

use super::Color;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::{Index, IndexMut};

/// A `T` for White and one for Black, read with `[Color]` (which uses [`Color::index`], the
/// one colour index).
///
/// Serialized as the pair `(white, black)`, exactly as the `[T; 2]` it replaces in stored
/// records (serde writes both as a 2-tuple), so bytes written before the type existed read
/// unchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColour<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColour<T> {
    pub const fn new(white: T, black: T) -> ByColour<T> {
        ByColour { white, black }
    }

    /// White's, then Black's.
    pub fn iter(&self) -> std::array::IntoIter<&T, 2> {
        [&self.white, &self.black].into_iter()
    }

    pub fn iter_mut(&mut self) -> std::array::IntoIter<&mut T, 2> {
        [&mut self.white, &mut self.black].into_iter()
    }

    /// Each side with its value, White first.
    pub fn sides(&self) -> std::array::IntoIter<(Color, &T), 2> {
        [(Color::White, &self.white), (Color::Black, &self.black)].into_iter()
    }

    pub fn as_ref(&self) -> ByColour<&T> {
        ByColour::new(&self.white, &self.black)
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColour<U> {
        ByColour {
            white: f(self.white),
            black: f(self.black),
        }
    }
}

impl<T> From<[T; 2]> for ByColour<T> {
    /// `[white, black]`.
    fn from([white, black]: [T; 2]) -> ByColour<T> {
        ByColour { white, black }
    }
}

impl<'a, T> IntoIterator for &'a ByColour<T> {
    type Item = &'a T;
    type IntoIter = std::array::IntoIter<&'a T, 2>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut ByColour<T> {
    type Item = &'a mut T;
    type IntoIter = std::array::IntoIter<&'a mut T, 2>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<T> Index<Color> for ByColour<T> {
    type Output = T;
    fn index(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColour<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

impl<T: Serialize> Serialize for ByColour<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.white, &self.black).serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByColour<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ByColour<T>, D::Error> {
        let (white, black) = <(T, T)>::deserialize(d)?;
        Ok(ByColour { white, black })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_by_colour_and_encodes_as_the_array_it_replaces() {
        let mut pair = ByColour::new("w".to_string(), "b".to_string());
        assert_eq!(pair[Color::White], "w");
        assert_eq!(pair[Color::Black], "b");
        pair[Color::Black].push('!');
        let array = ["w".to_string(), "b!".to_string()];
        assert_eq!(ByColour::from(array.clone()), pair);
        assert_eq!(
            postcard::to_allocvec(&pair).unwrap(),
            postcard::to_allocvec(&array).unwrap()
        );
        assert_eq!(
            serde_json::to_string(&pair).unwrap(),
            serde_json::to_string(&array).unwrap()
        );
        let bytes = postcard::to_allocvec(&array).unwrap();
        assert_eq!(
            postcard::from_bytes::<ByColour<String>>(&bytes).unwrap(),
            pair
        );
        let sides: Vec<_> = pair.sides().map(|(c, v)| (c, v.as_str())).collect();
        assert_eq!(sides, [(Color::White, "w"), (Color::Black, "b!")]);
    }
}
