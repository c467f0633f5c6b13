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
        var field = document.getElementById(link.getAttribute("href").slice(1));
        if (field) { event.preventDefault(); field.focus(); }
      });
    });
    summary.focus();
  }
  window.agoraEnhance = function (root) { localise(root); copyButtons(root); focusErrors(root); };
  document.addEventListener("DOMContentLoaded", function () { window.agoraEnhance(document); });
})();
