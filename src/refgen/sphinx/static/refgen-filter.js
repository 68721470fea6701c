// refgen: a filter box over a long category table (class refgen-filterable).
// Runs in the page only: no request leaves it. Without JavaScript there is no box
// and the whole table shows. Rows are matched on their text, every word typed,
// in any order and case; the count of rows shown is announced to screen readers.
(function () {
  "use strict";

  function words(text) {
    return text.toLowerCase().split(/\s+/).filter(function (word) { return word; });
  }

  function addFilter(table, index) {
    var body = table.tBodies[0];
    if (!body) { return; }
    var rows = Array.prototype.slice.call(body.rows);
    var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
    var box = document.createElement("div");
    box.className = "refgen-filter";
    var label = document.createElement("label");
    label.htmlFor = "refgen-filter-" + index;
    label.textContent = "Filter the " + rows.length + " scenarios";
    var input = document.createElement("input");
    input.type = "search";
    input.id = label.htmlFor;
    input.autocomplete = "off";
    input.spellcheck = false;
    var count = document.createElement("span");
    count.className = "refgen-filter-count";
    count.setAttribute("aria-live", "polite");
    box.appendChild(label);
    box.appendChild(input);
    box.appendChild(count);
    input.addEventListener("input", function () {
      var wanted = words(input.value);
      var shown = 0;
      rows.forEach(function (row, i) {
        var match = wanted.every(function (word) { return texts[i].indexOf(word) !== -1; });
        row.hidden = !match;
        if (match) { shown += 1; }
      });
      count.textContent = wanted.length ? shown + " of " + rows.length + " shown" : "";
    });
    var wrapper = table.closest(".table-wrapper") || table;
    wrapper.parentNode.insertBefore(box, wrapper);
  }

  function addFilters() {
    var tables = document.querySelectorAll("table.refgen-filterable");
    Array.prototype.forEach.call(tables, addFilter);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", addFilters);
  } else {
    addFilters();
  }
})();
