/* The search box of the Horse Race specification site: every word typed must appear in
   a rule, a fixture, a register entry or a glossary term (case and accents ignored); an
   ID typed whole comes first, then an ID it begins, then titles that hold the words.
   The index is search-index.js (window.HORSERACE_SEARCH: [kind, id, title, url, text]),
   written by `horserace site`; nothing is fetched, so it works from file:// too. */
(function () {
  "use strict";

  var LABELS = { rule: "rule", entry: "register", term: "glossary", fixture: "fixture" };
  var ORDER = { rule: 0, entry: 1, term: 2, fixture: 3 };
  var root = document.documentElement.getAttribute("data-root") || "";

  function fold(text) {
    return String(text).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function search(query, limit) {
    var index = window.HORSERACE_SEARCH || [];
    var whole = fold(query).trim();
    var words = whole.split(/\s+/).filter(function (w) { return w.length > 0; });
    var found = [];
    if (!words.length) { return found; }
    index.forEach(function (item, order) {
      var id = item[1].toLowerCase();
      var title = fold(item[2]);
      var text = item[4];
      var every = words.every(function (w) { return text.indexOf(w) >= 0; });
      if (!every) { return; }
      var score = 0;
      if (id === whole) { score = 1000; }
      else if (id.indexOf(whole) === 0) { score = 500; }
      else if (title.indexOf(whole) >= 0) { score = 200; }
      else if (words.every(function (w) { return title.indexOf(w) >= 0; })) { score = 100; }
      found.push({ item: item, score: score, order: order });
    });
    found.sort(function (a, b) {
      return b.score - a.score || ORDER[a.item[0]] - ORDER[b.item[0]] || a.order - b.order;
    });
    return found.slice(0, limit).map(function (f) { return f.item; });
  }

  function result(item) {
    var link = document.createElement("a");
    link.className = "result " + item[0];
    link.href = root + item[3];
    var kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = LABELS[item[0]] || item[0];
    var id = document.createElement("code");
    id.textContent = item[1];
    var title = document.createElement("span");
    title.className = "title";
    title.textContent = item[2];
    link.appendChild(kind);
    link.appendChild(id);
    link.appendChild(title);
    return link;
  }

  function show(box, query, limit, more) {
    var found = search(query, limit + 1);
    box.textContent = "";
    if (!query.trim()) { box.hidden = true; return; }
    if (!found.length) {
      var none = document.createElement("p");
      none.className = "none";
      none.textContent = "No rule, fixture, register entry or term holds every word of \u201c" + query.trim() + "\u201d.";
      box.appendChild(none);
    }
    found.slice(0, limit).forEach(function (item) { box.appendChild(result(item)); });
    if (more && found.length > limit) {
      var all = document.createElement("a");
      all.className = "all";
      all.href = root + "search.html?q=" + encodeURIComponent(query.trim());
      all.textContent = "All results \u2192";
      box.appendChild(all);
    }
    box.hidden = false;
  }

  function wire(form) {
    var input = form.querySelector("input[type=search]");
    var box = form.querySelector(".search-results");
    if (!input || !box) { return; }
    input.addEventListener("input", function () { show(box, input.value, 12, true); });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { box.hidden = true; }
      if (event.key === "ArrowDown") {
        var first = box.querySelector("a");
        if (first) { event.preventDefault(); first.focus(); }
      }
    });
    box.addEventListener("keydown", function (event) {
      var here = document.activeElement;
      if (event.key === "ArrowDown" && here && here.nextElementSibling) { event.preventDefault(); here.nextElementSibling.focus(); }
      if (event.key === "ArrowUp" && here) {
        event.preventDefault();
        (here.previousElementSibling || input).focus();
      }
      if (event.key === "Escape") { box.hidden = true; input.focus(); }
    });
    document.addEventListener("click", function (event) {
      if (!form.contains(event.target)) { box.hidden = true; }
    });
  }

  function searchPage() {
    var page = document.getElementById("search-page");
    if (!page) { return; }
    var query = new URLSearchParams(window.location.search).get("q") || "";
    var input = document.getElementById("search-box");
    if (input) { input.value = query; }
    var list = document.createElement("div");
    list.className = "search-results page";
    page.appendChild(list);
    show(list, query, 500, false);
    var count = document.createElement("p");
    count.className = "count";
    count.textContent = query.trim() ? list.querySelectorAll("a.result").length + " result(s) for \u201c" + query.trim() + "\u201d" : "Type in the search box above.";
    page.insertBefore(count, list);
  }

  window.horseraceSearch = search;
  document.querySelectorAll("form.search").forEach(wire);
  searchPage();
}());
