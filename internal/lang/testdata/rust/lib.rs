//! Crate docs.
use std::collections::HashMap;
use std::fmt::{self, Display};
use serde::{Deserialize, Serialize};
use crate::config::Config;
use super::util;

pub const MAX: usize = 10;
static NAME: &str = "x";

/// A point in space.
/// Has two coordinates.
#[derive(Debug, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Point<T> {
    pub x: T,
    pub y: T,
}

/// Shapes.
pub enum Shape {
    Circle(f64),
    Square { side: f64 },
}

pub trait Area: Display {
    fn area(&self) -> f64;
    fn describe(&self) -> String {
        format!("{}", self.area())
    }
}

impl<T: Display> Display for Point<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl Shape {
    /// Creates a circle.
    pub fn circle(r: f64) -> Self {
        let s = Shape::Circle(r);
        s.validate();
        helper(r);
        s
    }
}

fn helper(r: f64) -> f64 {
    let m: HashMap<u8, u8> = HashMap::new();
    util::log(r);
    r * 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_works() {
        assert_eq!(helper(1.0), 2.0);
    }
}
