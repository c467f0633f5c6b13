// Schedules (docs/schedules.md): the next runs of the rule being typed (GET
// /v1/schedules/preview), the creation (POST /v1/schedules, cookie + X-CSRF-Token), and a
// schedule's runs refreshed while its page is open (GET /v1/schedules/{id}/runs, bounded).
"use strict";
(function () {
  function show(box, text) { box.textContent = text || ""; box.hidden = !text; }

  var form = document.getElementById("new-schedule");
  if (form) {
    var preview = document.getElementById("preview");
    var previewError = document.getElementById("preview-error");
    var errorBox = document.getElementById("schedule-error");
    var timer = null;
    function rule() {
      var kind = form.querySelector("input[name=kind]:checked").value;
      var out = { timezone: form.timezone.value.trim() || "UTC" };
      if (kind === "cron") { out.cron = form.cron.value.trim(); }
      else { out.intervalSeconds = Math.round(Number(form.interval.value) * 60); }
      return out;
    }
    async function refresh() {
      var params = new URLSearchParams();
      var r = rule();
      Object.keys(r).forEach(function (k) { params.set(k, r[k]); });
      var response = await fetch("/v1/schedules/preview?" + params.toString(), { credentials: "same-origin" });
      var body = await response.json().catch(function () { return {}; });
      preview.replaceChildren();
      if (!response.ok) { show(previewError, body.message || "This rule cannot be used."); return; }
      show(previewError, "");
      body.data.local.forEach(function (t) {
        var li = document.createElement("li");
        li.textContent = t;
        preview.appendChild(li);
      });
    }
    form.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(refresh, 250); });
    refresh();
    form.addEventListener("submit", async function (event) {
      event.preventDefault();
      show(errorBox, "");
      var input;
      try { input = JSON.parse(form.inputData.value || "{}"); }
      catch (e) { show(errorBox, "Input: not valid JSON"); return; }
      var body = Object.assign(rule(), {
        agentId: form.agentId.value, inputData: input, missedPolicy: form.missedPolicy.value,
      });
      if (form.name.value.trim()) { body.name = form.name.value.trim(); }
      if (form.monthlyBudget.value !== "") { body.monthlyBudget = Number(form.monthlyBudget.value); }
      var response = await fetch("/v1/schedules", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": form.dataset.csrf },
        body: JSON.stringify(body),
      });
      var answer = await response.json().catch(function () { return {}; });
      if (!response.ok) { show(errorBox, answer.message || "The schedule was not created."); return; }
      window.location.assign("/schedules/" + answer.data.id);
    });
  }

  var facts = document.getElementById("schedule");
  if (facts) {
    var table = document.getElementById("runs");
    var none = document.getElementById("no-runs");
    var rounds = 0;
    async function poll() {
      rounds += 1;
      var response = await fetch("/v1/schedules/" + facts.dataset.id + "/runs?limit=100", { credentials: "same-origin" });
      if (response.ok) {
        var runs = (await response.json()).data;
        var tbody = table.tBodies[0];
        tbody.replaceChildren();
        runs.forEach(function (r) {
          var tr = document.createElement("tr");
          [r.occurrenceAt, r.status].forEach(function (v) {
            var td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
          });
          var job = document.createElement("td");
          if (r.jobId) {
            var a = document.createElement("a"); a.href = "/jobs/" + r.jobId; a.textContent = "job";
            job.appendChild(a);
          }
          tr.appendChild(job);
          var why = document.createElement("td"); why.textContent = r.reason || ""; tr.appendChild(why);
          tbody.appendChild(tr);
        });
        table.hidden = runs.length === 0;
        none.hidden = runs.length !== 0;
      }
      if (rounds < 600) { setTimeout(poll, rounds < 60 ? 1000 : 5000); }  // bounded
    }
    poll();
  }
})();
