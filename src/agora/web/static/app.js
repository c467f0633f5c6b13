// Progressive enhancement for every page: times in the reader's locale.
"use strict";
(function () {
  function localise(root) {
    root.querySelectorAll("time[datetime]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (!isNaN(d.getTime())) { el.textContent = d.toLocaleString(); }
    });
  }
  window.agoraLocalise = localise;
  // Copy buttons (hidden without JavaScript): copy the text of the element named by data-copy.
  function copyButtons(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var target = document.getElementById(button.dataset.copy);
        if (target && navigator.clipboard) {
          navigator.clipboard.writeText(target.innerText).then(function () {
            button.textContent = "Copied";
          });
        }
      });
    });
  }
  // A form's error summary (macros.html, error_summary) takes the focus, so a keyboard or
  // screen-reader user lands on the list of problems; each links to its field.
  function focusErrors(root) {
    var summary = root.querySelector(".error-summary");
    if (!summary) { return; }
    summary.querySelectorAll("a[href^='#']").forEach(function (link) {
      link.addEventListener("click", function (event) {
        var id = link.getAttribute("href").slice(1);
        var field = document.getElementById(id);
        if (field && field.classList.contains("error")) {  // a message: the control it describes
          field = document.querySelector("[aria-describedby~='" + id + "']") || field;
          if (field.tagName === "FIELDSET") { field = field.querySelector("input, select") || field; }
        }
        if (field) { event.preventDefault(); field.focus(); }
      });
    });
    summary.focus();
  }
  // The header's "Menu" button (small screens, signed in; hidden without JavaScript, when the
  // navigation simply stays open): opens and closes the navigation; Escape closes it.
  function menu() {
    var toggle = document.getElementById("menu-toggle");
    var header = document.querySelector("header.top");
    if (!toggle || !header) { return; }
    function set(open) {
      header.classList.toggle("open", open);
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
    }
    toggle.hidden = false;
    header.classList.add("ready");
    toggle.addEventListener("click", function () {
      set(toggle.getAttribute("aria-expanded") !== "true");
    });
    header.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && header.classList.contains("open")) { set(false); toggle.focus(); }
    });
  }
  // A table wider than the screen scrolls inside itself (app.css); one with nothing focusable
  // inside becomes focusable while it scrolls, so a keyboard can scroll it too.
  var FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]:not([data-scroll-focus])";
  function scrollableTables() {
    document.querySelectorAll("table").forEach(function (table) {
      if (table.querySelector(FOCUSABLE)) { return; }
      if (table.scrollWidth > table.clientWidth + 1) {
        table.setAttribute("tabindex", "0");
        table.setAttribute("data-scroll-focus", "");
      } else if (table.hasAttribute("data-scroll-focus")) {
        table.removeAttribute("tabindex");
        table.removeAttribute("data-scroll-focus");
      }
    });
  }
  window.addEventListener("resize", scrollableTables);
  // The header's bell: its unread count follows the inbox live (notifications/bell.py), one
  // server-sent event stream per tab, no polling.
  function bell() {
    var link = document.getElementById("bell");
    var count = document.getElementById("bell-count");
    if (!link || !count || !window.EventSource) { return; }
    var source = new EventSource(link.dataset.stream);
    source.addEventListener("unread", function (event) {
      var n = JSON.parse(event.data).unreadCount;
      count.textContent = String(n);
      count.setAttribute("aria-label", n + " unread");
      count.hidden = n === 0;
    });
    window.addEventListener("pagehide", function () { source.close(); });
  }
  window.agoraEnhance = function (root) { localise(root); copyButtons(root); focusErrors(root); };
  document.addEventListener("DOMContentLoaded", function () {
    menu();
    bell();
    scrollableTables();
    window.agoraEnhance(document);
  });
})();
