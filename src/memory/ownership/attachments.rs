//! The attachments of an owner: values found again by key, lock-free, attached once per key and
//! never removed while the list lives.
//!
//! A singly linked list, newest first. A node is pushed with a compare-exchange against the
//! head that was searched (Release on success), so a key is never attached twice: when another
//! node went in meanwhile, the compare-exchange fails and the search starts again from the new
//! head. Readers load the head with Acquire and walk without locks. Nodes are freed only by
//! `Drop`, which needs `&mut self`: while anyone can reach the list through `&self`, every
//! node it reaches is alive.

use core::marker::PhantomData;
use core::ptr;
use core::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Mutex;

use crate::memory::{Error, Result};

/// A value attached under a key.
struct Node<K, V> {
    key: K,
    value: V,
    /// The node attached before this one (NULL at the end); written only before publication.
    next: *mut Node<K, V>,
}

/// Values of type `V` under keys of type `K`, at most one per key.
pub(super) struct Attachments<K, V> {
    /// The newest node, NULL when empty. Each node was made by [`alloc_node`].
    head: AtomicPtr<Node<K, V>>,
    /// The list owns its nodes: see [`Owns`].
    _owns: PhantomData<Owns<K, V>>,
}

/// What the list's auto traits follow. Shared between threads, the list moves keys and values
/// in (`attach`) and copies them out (`find`, `each`) on any thread: `Sync` needs `K` and `V`
/// both `Send` (the `Mutex` part) and `Sync` (the tuple part); `Send` needs them `Send`.
type Owns<K, V> = (Mutex<(K, V)>, (K, V));

impl<K: Copy + Eq, V: Copy> Attachments<K, V> {
    /// No attachments.
    pub(super) const fn new() -> Self {
        Attachments { head: AtomicPtr::new(ptr::null_mut()), _owns: PhantomData }
    }

    /// The value attached under `key`.
    pub(super) fn find(&self, key: K) -> Option<V> {
        Self::find_from(self.walk(self.head.load(Ordering::Acquire)), key)
    }

    /// The value under `key` among `nodes`.
    fn find_from<'a>(mut nodes: impl Iterator<Item = &'a Node<K, V>>, key: K) -> Option<V>
    where
        K: 'a,
        V: 'a,
    {
        nodes.find(|n| n.key == key).map(|n| n.value)
    }

    /// Calls `f` with every attached value, newest first.
    pub(super) fn each(&self, f: impl FnMut(V)) {
        self.walk(self.head.load(Ordering::Acquire)).map(|n| n.value).for_each(f);
    }

    /// The nodes from `node` on, borrowed from `self`.
    fn walk(&self, mut node: *const Node<K, V>) -> impl Iterator<Item = &Node<K, V>> {
        core::iter::from_fn(move || {
            // SAFETY: `node` is NULL or a node of this list: the head (or a link) loaded with
            // Acquire after the Release compare-exchange that published it complete, and freed
            // only by `Drop`, which cannot run while `self` is borrowed.
            let n = unsafe { node.as_ref() }?;
            node = n.next;
            Some(n)
        })
    }

    /// Attaches `value` under `key` unless a value is attached under `key` already; returns the
    /// value attached under `key` after the call (`value`, or the earlier one). Lock-free;
    /// allocates one node (freed again when `key` turned out to be taken).
    pub(super) fn attach(&self, key: K, value: V) -> Result<V> {
        let mut head = self.head.load(Ordering::Acquire);
        let mut node: Option<Box<[Node<K, V>]>> = None;
        loop {
            if let Some(existing) = Self::find_from(self.walk(head), key) {
                return Ok(existing);
            }
            let mut fresh = match node.take() {
                Some(fresh) => fresh,
                None => alloc_node(Node { key, value, next: head })?,
            };
            // Unpublished: this thread's alone.
            fresh[0].next = head;
            let raw = Box::into_raw(fresh).cast::<Node<K, V>>();
            // Release: the node is complete before readers can reach it. Success means that
            // the head did not change since `find_from` searched it, so `key` was not attached.
            match self.head.compare_exchange_weak(head, raw, Ordering::Release, Ordering::Acquire) {
                Ok(_) => return Ok(value),
                Err(current) => {
                    // SAFETY: `raw` came from `Box::into_raw` just above and was not published
                    // (the compare-exchange failed): taking it back is this thread's right.
                    node = Some(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(raw, 1)) });
                    head = current;
                }
            }
        }
    }
}

/// A node in a box of its own (a slice of one, so that the allocation can fail with an error
/// instead of aborting, as `Box::new` would).
fn alloc_node<K, V>(node: Node<K, V>) -> Result<Box<[Node<K, V>]>> {
    let mut one = Vec::new();
    one.try_reserve_exact(1).map_err(|_| Error::Alloc {
        nbytes: core::mem::size_of::<Node<K, V>>(),
        alignment: core::mem::align_of::<Node<K, V>>(),
    })?;
    one.push(node);
    Ok(one.into_boxed_slice())
}

impl<K, V> Drop for Attachments<K, V> {
    fn drop(&mut self) {
        let head = *self.head.get_mut();
        if !head.is_null() {
            free_nodes(head);
        }
    }
}

/// Frees the nodes from `node` on, out of line: most owners have none, and their drop stays a
/// load and a test.
#[inline(never)]
fn free_nodes<K, V>(mut node: *mut Node<K, V>) {
    while !node.is_null() {
        // SAFETY: every node of the list came from `Box::into_raw` of a one-node slice in
        // `attach` and is freed here once (the list's `drop`: no one else can reach it).
        let boxed = unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(node, 1)) };
        node = boxed[0].next;
    }
}
