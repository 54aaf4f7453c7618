//! Rule tests on stacked heaps.
