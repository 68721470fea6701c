/* refgen: puts the site's navigation (REFGEN_NAVIGATION, furo's tree with links
   relative to the site's root) in a generated page's sidebar, and marks the
   current page as Sphinx and furo do: "current" on its link and every element
   of its branch, "current-page" on its entry, its branch's toggles open. */
(function () {
  "use strict";
  var script = document.currentScript;
  var holder = script && script.previousElementSibling;
  if (!holder || !holder.hasAttribute("data-refgen-navigation")) {
    return;
  }
  var root = holder.getAttribute("data-root");
  var page = holder.getAttribute("data-page");
  var tree = document.createElement("div");
  tree.innerHTML = REFGEN_NAVIGATION;

  function markBranch(link) {
    for (var node = link; node && node !== tree; node = node.parentElement) {
      node.classList.add("current");
    }
  }

  tree.querySelectorAll("a.reference.internal").forEach(function (link) {
    var href = link.getAttribute("href");
    if (href === page) {
      link.setAttribute("href", "#");
      markBranch(link);
    } else {
      link.setAttribute("href", root + href);
    }
  });
  var current = tree.querySelectorAll("li.current");
  current.forEach(function (item) {
    var toggle = item.querySelector(":scope > input.toctree-checkbox");
    if (toggle) {
      toggle.checked = true;
      toggle.setAttribute("checked", "");
    }
  });
  if (current.length) {
    current[current.length - 1].classList.add("current-page");
  }
  holder.replaceWith.apply(holder, Array.prototype.slice.call(tree.childNodes));
})();
