// Progressive enhancement for every page: times in the reader's locale.
"use strict";
(function () {
  // Every time in the reader's zone, named ("28 Nov 2026, 09:15 CET"); <time data-relative>
  // reads "5 min ago", the full local time in its title. Without JavaScript: the server's text,
  // in the same zone once it knows it (render.when), named.
  var FULL = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short" };
  function relative(d) {
    var seconds = Math.round((d.getTime() - Date.now()) / 1000);
    var steps = [[60, "second"], [3600, "minute"], [86400, "hour"], [604800, "day"], [2629800, "week"]];
    var rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
    if (Math.abs(seconds) < 45) { return rtf.format(0, "second"); }
    for (var i = 1; i < steps.length; i++) {
      if (Math.abs(seconds) < steps[i][0]) {
        return rtf.format(Math.round(seconds / steps[i - 1][0]), steps[i - 1][1]);
      }
    }
    return null;
  }
  // The zone chosen on /settings/appearance (<html data-tz>); else the browser's own, which is
  // told to the server (cookie agora_tz_auto) so its pages (the inbox's days, times without
  // JavaScript) use it from the next page on.
  var chosenZone = document.documentElement.getAttribute("data-tz");
  if (chosenZone) { FULL.timeZone = chosenZone; }
  function tellZone() {
    var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    // An IANA name is cookie-safe as it is ("Asia/Tokyo"); anything else is not told.
    if (!zone || chosenZone || !/^[A-Za-z0-9_+\/-]{1,64}$/.test(zone)) { return; }
    if (document.cookie.split("; ").indexOf("agora_tz_auto=" + zone) < 0) {
      document.cookie = "agora_tz_auto=" + zone + "; path=/; max-age=34560000; samesite=lax" +
        (location.protocol === "https:" ? "; secure" : "");
    }
  }
  function localise(root) {
    root.querySelectorAll("time[datetime]").forEach(function (el) {
      var d = new Date(el.getAttribute("datetime"));
      if (isNaN(d.getTime())) { return; }
      var full;
      try { full = d.toLocaleString(undefined, FULL); } catch (e) { return; }
      var near = el.hasAttribute("data-relative") && window.Intl && Intl.RelativeTimeFormat ? relative(d) : null;
      el.textContent = near || full;
      if (near) { el.title = full; }
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
    document.querySelectorAll("table, pre").forEach(function (table) {
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
  // A select marked data-autosubmit (the workspace switch, the theme) submits its form when it
  // changes; its form's button (data-nojs) is then not needed and hidden — without JavaScript
  // it stays and submits the form.
  function autosubmit(root) {
    root.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
      var form = select.form;
      if (!form) { return; }
      form.querySelectorAll("[data-nojs]").forEach(function (b) { b.hidden = true; });
      select.addEventListener("change", function () {
        if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      });
    });
  }
  // A destructive submit button with data-confirm asks first (window.confirm).
  function confirmations() {
    document.addEventListener("submit", function (event) {
      var button = event.submitter;
      if (button && button.dataset && button.dataset.confirm && !window.confirm(button.dataset.confirm)) {
        event.preventDefault();
      }
    });
  }
  // <details> menus (the account menu): Escape closes and gives the focus back to the summary;
  // a click outside closes them too. They open and close without JavaScript.
  function menus() {
    var all = document.querySelectorAll("details.menu-button");
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape") { return; }
      all.forEach(function (d) {
        if (d.open) { d.open = false; d.querySelector("summary").focus(); }
      });
    });
    document.addEventListener("click", function (event) {
      all.forEach(function (d) { if (d.open && !d.contains(event.target)) { d.open = false; } });
    });
  }
  // The gallery's filters: open in the page (and without JavaScript); on a phone, closed behind
  // their "Filters" summary unless one is in use.
  function filters() {
    var box = document.getElementById("filters");
    if (box && box.dataset.active !== "true" && window.matchMedia("(max-width: 40rem)").matches) {
      box.open = false;
    }
  }
  // The toast (base.html): its close button shows; it leaves after 8 s, but not while the
  // pointer or the focus is on it (so it can be read at any pace).
  function toast() {
    var box = document.getElementById("toast");
    if (!box) { return; }
    var close = box.querySelector("[data-dismiss]");
    function leave() { box.remove(); }
    close.hidden = false;
    close.addEventListener("click", leave);
    var timer = setTimeout(leave, 8000);
    ["mouseenter", "focusin"].forEach(function (e) {
      box.addEventListener(e, function () { clearTimeout(timer); });
    });
  }
  window.agoraEnhance = function (root) { localise(root); copyButtons(root); focusErrors(root); };
  document.addEventListener("DOMContentLoaded", function () {
    tellZone();
    toast();
    autosubmit(document);
    filters();
    confirmations();
    menus();
    menu();
    bell();
    scrollableTables();
    window.agoraEnhance(document);
  });
})();
