//! `RcEq<T>`: an `Rc` that props compare by identity. A lane's result is
//! replaced (copy on write) whenever it changes, so "the same pointer" means
//! "unchanged", and an unchanged lane costs one comparison per render instead
//! of one per step and candidate.

use std::ops::Deref;
use std::rc::Rc;

#[derive(Debug, Default)]
pub struct RcEq<T>(Rc<T>);

impl<T> RcEq<T> {
    pub fn new(value: T) -> Self {
        RcEq(Rc::new(value))
    }
}

impl<T: Clone> RcEq<T> {
    /// The value to change in place, copied first if a view still holds it.
    pub fn make_mut(&mut self) -> &mut T {
        Rc::make_mut(&mut self.0)
    }
}

impl<T> Clone for RcEq<T> {
    fn clone(&self) -> Self {
        RcEq(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for RcEq<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for RcEq<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<Rc<T>> for RcEq<T> {
    fn from(rc: Rc<T>) -> Self {
        RcEq(rc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_means_the_same_value_and_a_change_makes_a_new_one() {
        let a = RcEq::new(vec![1]);
        let held_by_a_view = a.clone();
        assert_eq!(a, held_by_a_view);
        assert_ne!(RcEq::new(vec![1]), a, "equal contents, different values");
        let mut b = a.clone();
        b.make_mut().push(2);
        assert_ne!(b, held_by_a_view);
        assert_eq!(*held_by_a_view, vec![1], "the view's value is untouched");
    }
}
