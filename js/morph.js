// Boneyard's keyed morph: the page's renders change only what changed (issue 34, "the page updated by
// region"). The app builds each screen's whole markup in Python; instead of replacing #app's contents
// with it, this turns the live nodes into that markup and keeps every node that stays, so a control that
// did not change keeps its focus, its hover, its caret and its running animation.
//
// window.boneyardMorph(root, html, options) -> {kept, created, removed} (elements, for the tests)
//   Matching: an element with an id is the element of that id anywhere under root (and of the same
//   data-key, if it has one: a new data-key makes a new node); an element with only a data-key is the
//   child of that key of the same parent; anything else is matched by position with the next old child
//   of the same tag. The tag (and namespace) must match. A match is patched: attributes, text, children.
//   A keyed node found elsewhere is moved (with moveBefore where the browser has it, which keeps its
//   state); old children not matched are removed; new ones are the parsed nodes themselves.
//   Kept as they are: <canvas> and elements marked data-morph="keep" (their owner draws into them).
//   Form controls: a text field or select the player is in keeps its value, caret and selection unless
//   the markup's own value changed; the others follow the markup, as a fresh page would.
//   options.hold: ids of elements to leave as they are for now (the message line while a tile lands);
//   their new markup waits until boneyardMorph.release(id) (a later morph without the hold patches them
//   to the newest markup, and release then does nothing). boneyardMorph.held(id) returns what waits.
// Written for this project after reading how morphdom and chessground keep their nodes; no code of theirs.
(function () {
  "use strict";
  if (window.boneyardMorph) return;

  var TEXT_FIELDS = { text: 1, search: 1, email: 1, url: 1, tel: 1, password: 1, number: 1 };
  var waiting = {}; // id -> the parsed element a held node is to become

  function isKept(node) {
    return node.nodeType === 1 && (node.localName === "canvas" || node.getAttribute("data-morph") === "keep");
  }

  function sameKind(a, b) {
    return a.nodeType === b.nodeType &&
      (a.nodeType !== 1 || (a.localName === b.localName && a.namespaceURI === b.namespaceURI));
  }

  function attr(node, name) {
    return node.nodeType === 1 ? node.getAttribute(name) : null;
  }

  // Every element with an id under root, but inside kept ones (their insides belong to their owner).
  function indexIds(root) {
    var ids = {};
    var stack = Array.prototype.slice.call(root.children);
    while (stack.length) {
      var node = stack.pop();
      var id = node.getAttribute("id");
      if (id && !(id in ids)) ids[id] = node;
      if (!isKept(node)) for (var i = 0; i < node.children.length; i++) stack.push(node.children[i]);
    }
    return ids;
  }

  function move(parent, node, before) {
    if (node.parentNode === parent && node.nextSibling === before) return;
    if (parent.moveBefore && node.isConnected && parent.isConnected) {
      try {
        parent.moveBefore(node, before); // keeps focus, hover and animations (Chromium 133+)
        return;
      } catch (e) { /* a move it cannot do atomically: insert as usual below */ }
    }
    parent.insertBefore(node, before);
  }

  function patchAttributes(from, to) {
    var i, a;
    var wanted = to.attributes;
    for (i = 0; i < wanted.length; i++) {
      a = wanted[i];
      if (a.namespaceURI) {
        if (from.getAttributeNS(a.namespaceURI, a.localName) !== a.value) from.setAttributeNS(a.namespaceURI, a.name, a.value);
      } else if (from.getAttribute(a.name) !== a.value) {
        from.setAttribute(a.name, a.value);
      }
    }
    var had = from.attributes;
    for (i = had.length - 1; i >= 0; i--) {
      a = had[i];
      if (a.namespaceURI ? !to.hasAttributeNS(a.namespaceURI, a.localName) : !to.hasAttribute(a.name)) {
        if (a.namespaceURI) from.removeAttributeNS(a.namespaceURI, a.localName);
        else from.removeAttribute(a.name);
      }
    }
  }

  // The option a select's markup chooses (the last one marked selected, else the first), as an index.
  function markedIndex(select) {
    var options = select.querySelectorAll("option");
    var found = options.length ? 0 : -1;
    for (var i = 0; i < options.length; i++) if (options[i].hasAttribute("selected")) found = i;
    return found;
  }

  function patchElement(from, to, state) {
    var tag = from.localName;
    var focused = from === state.active;
    if (tag === "input") {
      var typed = TEXT_FIELDS[from.type] && focused && from.getAttribute("value") === to.getAttribute("value");
      patchAttributes(from, to);
      if (from.checked !== to.checked) from.checked = to.checked;
      if (from.type !== "file" && !typed && from.value !== to.value) from.value = to.value;
      return;
    }
    if (tag === "textarea") {
      var same = from.defaultValue === to.defaultValue;
      patchAttributes(from, to);
      if (!same) from.defaultValue = to.defaultValue;
      if (!(focused && same) && from.value !== to.value) from.value = to.value;
      return;
    }
    var chosen = tag === "select" ? markedIndex(from) : -1;
    patchAttributes(from, to);
    morphChildren(from, to, state);
    if (tag === "select" && !from.multiple) {
      var index = markedIndex(from);
      if (!(focused && index === chosen) && from.selectedIndex !== index) from.selectedIndex = index;
    }
  }

  function morphNode(from, to, state) {
    if (from.nodeType !== 1) {
      if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
      return;
    }
    if (isKept(from) && isKept(to)) return;
    var id = from.getAttribute("id");
    if (id && state.hold[id]) {
      waiting[id] = to; // patched later, by release()
      return;
    }
    if (id) delete waiting[id];
    patchElement(from, to, state);
  }

  // The old node the new child `to` becomes, or null (a new node).
  function findMatch(parent, to, cursor, byKey, state) {
    var id = attr(to, "id");
    var candidate;
    if (id) {
      candidate = state.ids[id];
      if (!candidate || state.used.has(candidate) || !sameKind(candidate, to)) return null;
      if (attr(candidate, "data-key") !== attr(to, "data-key")) return null; // a new version of it
      if (candidate === parent || candidate.contains(parent)) return null;
      return candidate;
    }
    var key = attr(to, "data-key");
    if (key) {
      var list = byKey[key] || [];
      for (var i = 0; i < list.length; i++) {
        if (!state.used.has(list[i]) && sameKind(list[i], to)) return list[i];
      }
      return null;
    }
    // Unkeyed: the next old child of the same kind that no key claims.
    for (candidate = cursor; candidate; candidate = candidate.nextSibling) {
      if (state.used.has(candidate) || attr(candidate, "id") || attr(candidate, "data-key")) continue;
      if (sameKind(candidate, to)) return candidate;
    }
    return null;
  }

  function morphChildren(from, to, state) {
    var byKey = {};
    var child;
    for (child = from.firstElementChild; child; child = child.nextElementSibling) {
      var key = child.getAttribute("data-key");
      if (key && !child.getAttribute("id")) (byKey[key] = byKey[key] || []).push(child);
    }
    var wanted = Array.prototype.slice.call(to.childNodes);
    var cursor = from.firstChild;
    var placed = new Set();
    for (var i = 0; i < wanted.length; i++) {
      var next = wanted[i];
      var match = findMatch(from, next, cursor, byKey, state);
      if (match) {
        state.used.add(match);
        if (!(match.parentNode === from && isAhead(match, cursor))) move(from, match, cursor);
        // The old children skipped over are removed below (or moved back by their key).
        morphNode(match, next, state);
        placed.add(match);
        cursor = match.nextSibling; // after its subtree's morph, which may have taken keyed nodes from here
      } else {
        from.insertBefore(next, cursor);
        placed.add(next);
        if (next.nodeType === 1) adoptKeyed(next, state);
        cursor = next.nextSibling; // the old cursor, unless the new subtree took it in
      }
    }
    for (child = from.firstChild; child; ) {
      var after = child.nextSibling;
      if (!placed.has(child)) from.removeChild(child);
      child = after;
    }
  }

  // A new subtree takes in the old elements its ids name (a kept control in a new wrapper stays itself).
  function adoptKeyed(node, state) {
    var named = node.querySelectorAll("[id]");
    for (var i = 0; i < named.length; i++) {
      var fresh = named[i];
      var old = state.ids[fresh.getAttribute("id")];
      if (!old || state.used.has(old) || !node.contains(fresh) || !sameKind(old, fresh)) continue;
      if (attr(old, "data-key") !== attr(fresh, "data-key") || old.contains(node)) continue;
      state.used.add(old);
      move(fresh.parentNode, old, fresh);
      fresh.parentNode.removeChild(fresh);
      morphNode(old, fresh, state);
    }
  }

  // Whether node is cursor or comes after it among its siblings.
  function isAhead(node, cursor) {
    for (var at = cursor; at; at = at.nextSibling) if (at === node) return true;
    return false;
  }

  function elements(root) {
    return root.getElementsByTagName("*");
  }

  function morph(root, html, options) {
    var hold = {};
    ((options && options.hold) || []).forEach(function (id) { hold[id] = true; });
    var before = new Set(Array.prototype.slice.call(elements(root)));
    var active = document.activeElement;
    var inside = active && active !== root && root.contains(active) ? active : null;
    var caret = null;
    if (inside && typeof inside.selectionStart === "number") {
      try {
        caret = [inside.value, inside.selectionStart, inside.selectionEnd, inside.selectionDirection];
      } catch (e) { caret = null; }
    }
    var template = document.createElement("template");
    template.innerHTML = html;
    var state = { ids: indexIds(root), used: new Set(), hold: hold, active: inside };
    morphChildren(root, template.content, state);
    // A focused control that stayed keeps the focus (and its caret) even where a move could not keep it.
    if (inside && inside.isConnected && document.activeElement !== inside) {
      inside.focus({ preventScroll: true });
      if (caret && inside.value === caret[0]) {
        try { inside.setSelectionRange(caret[1], caret[2], caret[3]); } catch (e) { /* not a text field */ }
      }
    }
    var counts = { kept: 0, created: 0, removed: 0 };
    var now = elements(root);
    for (var i = 0; i < now.length; i++) {
      if (before.has(now[i])) {
        counts.kept++;
        before.delete(now[i]);
      } else {
        counts.created++;
      }
    }
    counts.removed = before.size;
    return counts;
  }

  morph.held = function (id) {
    return waiting[id] || null;
  };

  morph.release = function (id) {
    var to = waiting[id];
    delete waiting[id];
    var from = document.getElementById(id);
    if (!to || !from) return false;
    var active = document.activeElement;
    patchElement(from, to, { ids: indexIds(from), used: new Set(), hold: {}, active: from.contains(active) ? active : null });
    return true;
  };

  window.boneyardMorph = morph;
})();
