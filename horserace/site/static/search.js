/* The search box of the Horse Race specification site: every word typed must appear in
   a rule, a fixture, a register entry, a glossary term or a section of a guide (case and
   accents ignored); an
   ID typed whole comes first, then an ID it begins, then titles that hold the words.
   The index is search-index.js (window.HORSERACE_SEARCH: [kind, id, title, url, text]),
   written by `horserace site`; nothing is fetched, so it works from file:// too.
   From the keyboard: "/" focuses the box; ArrowDown and ArrowUp choose a result, Enter
   opens it, Escape closes the results. */
(function () {
  "use strict";

  var LABELS = { rule: "rule", entry: "register", term: "glossary", fixture: "fixture", guide: "guide" };
  var ORDER = { rule: 0, entry: 1, term: 2, fixture: 3, guide: 4 };
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
      none.textContent = "No rule, fixture, register entry, term or guide holds every word of \u201c" + query.trim() + "\u201d.";
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

  /* The box is a combobox (WAI-ARIA's pattern with aria-activedescendant): the focus
     stays in the search field, so typing goes on, while ArrowDown and ArrowUp move the
     active result (Home and End: the first and the last), Enter opens it (with none
     active, Enter sends the words to the search page), Escape closes the results. */
  var boxes = 0;

  function wire(form) {
    var input = form.querySelector("input[type=search]");
    var box = form.querySelector(".search-results");
    if (!input || !box) { return; }
    boxes += 1;
    box.id = box.id || "search-results-" + boxes;
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", box.id);
    input.setAttribute("aria-expanded", "false");
    var active = -1;

    function options() { return box.querySelectorAll("a"); }

    function activate(index) {
      var all = options();
      active = index < 0 || !all.length ? -1 : Math.min(index, all.length - 1);
      for (var i = 0; i < all.length; i++) {
        all[i].classList.toggle("active", i === active);
        all[i].setAttribute("aria-selected", i === active ? "true" : "false");
      }
      if (active < 0) { input.removeAttribute("aria-activedescendant"); return; }
      input.setAttribute("aria-activedescendant", all[active].id);
      all[active].scrollIntoView({ block: "nearest" });
    }

    function open() {
      show(box, input.value, 12, true);
      var all = options();
      for (var i = 0; i < all.length; i++) {
        all[i].id = box.id + "-" + i;
        all[i].setAttribute("role", "option");
        all[i].setAttribute("tabindex", "-1");
      }
      input.setAttribute("aria-expanded", box.hidden ? "false" : "true");
      activate(-1);
    }

    function close() {
      box.hidden = true;
      input.setAttribute("aria-expanded", "false");
      activate(-1);
    }

    input.addEventListener("input", open);
    input.addEventListener("focus", function () { if (box.hidden && input.value.trim()) { open(); } });
    input.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      var count = options().length;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        if (box.hidden) {
          if (!input.value.trim()) { return; }
          open();
          activate(event.key === "ArrowDown" ? 0 : options().length - 1);
          return;
        }
        if (event.key === "ArrowDown") { activate(Math.min(active + 1, count - 1)); }
        else { activate(active - 1); }  /* above the first: back to the words typed */
      } else if ((event.key === "Home" || event.key === "End") && !box.hidden && active >= 0) {
        event.preventDefault();
        activate(event.key === "Home" ? 0 : count - 1);
      } else if (event.key === "Enter" && !box.hidden && active >= 0) {
        event.preventDefault();
        window.location.href = options()[active].href;
      } else if (event.key === "Escape") {
        if (!box.hidden) { event.preventDefault(); }
        close();
      }
    });
    box.addEventListener("mousemove", function (event) {
      var link = event.target.closest ? event.target.closest("a") : null;
      var all = Array.prototype.slice.call(options());
      if (link && all.indexOf(link) >= 0 && all.indexOf(link) !== active) { activate(all.indexOf(link)); }
    });
    document.addEventListener("click", function (event) {
      if (!form.contains(event.target)) { close(); }
    });
  }

  /* "/" anywhere but in a field of text: to the search box, as on GitHub and MDN. */
  function shortcut(event) {
    if (event.key !== "/" || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) { return; }
    var here = event.target;
    var tag = here && here.tagName ? here.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "textarea" || tag === "select" || (here && here.isContentEditable)) { return; }
    var input = document.getElementById("search-box");
    if (!input) { return; }
    event.preventDefault();
    input.focus();
    input.select();
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
  document.addEventListener("keydown", shortcut);
  searchPage();
}());
