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
  window.agoraEnhance = function (root) { localise(root); copyButtons(root); };
  document.addEventListener("DOMContentLoaded", function () { window.agoraEnhance(document); });
})();
