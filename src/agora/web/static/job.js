// The job page, live: subscribes to GET /v1/jobs/{id}/stream (server-sent events) and updates the
// status and timeline in place; when the job asks for input or finishes, it fetches the page
// again and swaps the live part (no reload). Without JavaScript the page offers a refresh link.
"use strict";
(function () {
  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("job");
    if (!root || !window.EventSource || root.dataset.final === "true") { return; }
    var id = root.dataset.jobId;
    var source = new EventSource("/v1/jobs/" + encodeURIComponent(id) + "/stream");

    function refreshLive() {
      fetch(window.location.pathname, { credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("job");
          var current = document.getElementById("job");
          if (fresh && current) {
            current.replaceWith(fresh);
            if (window.agoraEnhance) { window.agoraEnhance(fresh); }
          }
        });
    }

    function onEvent(e) {
      var data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      var statusEl = document.getElementById("job-status");
      var timeline = document.getElementById("timeline");
      if (timeline.querySelector('[data-event-id="' + data.id + '"]')) { return; }
      var labels = {};
      try { labels = JSON.parse(root.dataset.labels || "{}"); } catch (err) { labels = {}; }
      var words = data.type === "created" ? "Created" : data.toStatus ? (labels[data.toStatus] || data.toStatus)
        : String(data.type || "").replace(/[_.]/g, " ").replace(/^./, function (c) { return c.toUpperCase(); });
      var li = document.createElement("li");
      li.dataset.eventId = data.id;
      var step = document.createElement("span");
      step.className = "step";
      step.textContent = words;
      var t = document.createElement("time");
      t.setAttribute("datetime", data.createdAt);
      var when = document.createElement("span");
      when.className = "when";
      when.append(t);
      li.append(step, when);
      timeline.querySelectorAll("li.current").forEach(function (el) {
        el.classList.remove("current"); el.classList.add("done"); el.removeAttribute("aria-current");
      });
      li.className = "current";
      li.setAttribute("aria-current", "step");
      var next = document.getElementById("timeline-next");
      timeline.insertBefore(li, next);
      if (window.agoraLocalise) { window.agoraLocalise(li); }
      if (data.toStatus) {
        statusEl.textContent = words;
        statusEl.dataset.status = data.toStatus;
        statusEl.className = "status status-" + data.toStatus.toLowerCase();
      }
      var ended = ["COMPLETED", "FAILED", "CANCELLED"].indexOf(data.toStatus) >= 0;
      if (e.type === "input_requested" || e.type === "result" || ended) {
        if (e.type === "result") { source.close(); }
        refreshLive();
      }
    }
    ["status", "input_requested", "result", "message"].forEach(function (name) {
      source.addEventListener(name, onEvent);
    });
  });
})();
