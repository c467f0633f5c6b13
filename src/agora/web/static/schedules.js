// Schedules (docs/schedules.md): the next runs of the rule being typed (GET
// /v1/schedules/preview), the creation (POST /v1/schedules) and the changes (PATCH
// /v1/schedules/{id}; pause, resume, end) with cookie + X-CSRF-Token, and a schedule's runs
// refreshed while its page is open (GET /v1/schedules/{id}/runs, bounded).
"use strict";
(function () {
  function show(box, text) { box.textContent = text || ""; box.hidden = !text; }

  // One request to the API as the signed-in person; the answer's JSON (or {}) and its status.
  async function send(method, url, csrf, body) {
    var options = { method: method, credentials: "same-origin", headers: { "X-CSRF-Token": csrf } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    var response = await fetch(url, options);
    return { ok: response.ok, body: await response.json().catch(function () { return {}; }) };
  }

  // A schedule form (new or change): its rule, the live preview of its next runs, and the
  // fields both forms share, as the API's body.
  function scheduleForm(form) {
    var preview = document.getElementById("preview");
    var previewError = document.getElementById("preview-error");
    var timer = null;
    function rule() {
      var kind = form.querySelector("input[name=kind]:checked").value;
      var out = { timezone: form.timezone.value.trim() || "UTC" };
      if (kind === "cron") { out.cron = form.cron.value.trim(); out.intervalSeconds = null; }
      else { out.intervalSeconds = Math.round(Number(form.interval.value) * 60); out.cron = null; }
      return out;
    }
    async function refresh() {
      var params = new URLSearchParams();
      var r = rule();
      Object.keys(r).forEach(function (k) { if (r[k] !== null) { params.set(k, r[k]); } });
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
    return function body(errorBox) {
      var input;
      if (form.dataset.fields) { input = inputData(form); }
      else {
        try { input = JSON.parse(form.inputData.value || "{}"); }
        catch (e) { show(errorBox, "Input: not valid JSON"); return null; }
      }
      var out = Object.assign(rule(), { inputData: input, missedPolicy: form.missedPolicy.value });
      if (form.name.value.trim()) { out.name = form.name.value.trim(); }
      out.monthlyBudget = form.monthlyBudget.value === "" ? null : Number(form.monthlyBudget.value);
      return out;
    };
  }

  // The agent's generated form (the hire form's fields, macros.schema_form) as inputData, by
  // forms.input_data's rules: a checkbox is true or false, yes/no radios a boolean, lists only
  // when something is picked, numbers as numbers, blank fields left out.
  function inputData(form) {
    var fields = JSON.parse(form.dataset.fields || "[]");
    var values = new FormData(form);
    var out = {};
    fields.forEach(function (f) {
      if (f.widget === "checkbox") { out[f.id] = values.get(f.name) !== null; return; }
      if (f.widget === "yesno") {
        var answer = values.get(f.name);
        if (answer === "true" || answer === "false") { out[f.id] = answer === "true"; }
        return;
      }
      if (f.multiple || f.widget === "checkboxes") {
        var picked = values.getAll(f.name).map(String);
        if (picked.length) { out[f.id] = picked; }
        return;
      }
      var text = values.get(f.name);
      if (text === null || text === "") { return; }
      out[f.id] = f.number && text.trim() !== "" && !isNaN(Number(text)) ? Number(text) : text;
    });
    return out;
  }

  var form = document.getElementById("new-schedule");
  if (form) {
    var errorBox = document.getElementById("schedule-error");
    var bodyOf = scheduleForm(form);
    form.addEventListener("submit", async function (event) {
      event.preventDefault();
      show(errorBox, "");
      var body = bodyOf(errorBox);
      if (body === null) { return; }
      body.agentId = form.dataset.agentId;
      Object.keys(body).forEach(function (k) { if (body[k] === null) { delete body[k]; } });
      var answer = await send("POST", "/v1/schedules", form.dataset.csrf, body);
      if (!answer.ok) { show(errorBox, answer.body.message || "The schedule was not created."); return; }
      window.location.assign("/schedules/" + answer.body.data.id);
    });
  }

  var edit = document.getElementById("edit-schedule");
  if (edit) {
    var editError = document.getElementById("schedule-error");
    var changesOf = scheduleForm(edit);
    var initial = changesOf(editError);
    edit.addEventListener("submit", async function (event) {
      event.preventDefault();
      show(editError, "");
      var now = changesOf(editError);
      if (now === null) { return; }
      // Only what changed: a rule sent again would restart the occurrences from now.
      var body = {};
      Object.keys(now).forEach(function (k) {
        if (JSON.stringify(now[k]) !== JSON.stringify(initial[k])) { body[k] = now[k]; }
      });
      if ("cron" in body || "intervalSeconds" in body) {
        body.cron = now.cron; body.intervalSeconds = now.intervalSeconds;
      }
      if (Object.keys(body).length === 0) { show(editError, "Nothing was changed."); return; }
      var answer = await send("PATCH", "/v1/schedules/" + edit.dataset.id, edit.dataset.csrf, body);
      if (!answer.ok) { show(editError, answer.body.message || "The schedule was not changed."); return; }
      window.location.reload();
    });
  }

  var actions = document.getElementById("schedule-actions");
  if (actions) {
    var actionError = document.getElementById("action-error");
    var id = document.getElementById("schedule").dataset.id;
    actions.querySelectorAll("button[data-action]").forEach(function (button) {
      button.addEventListener("click", async function () {
        if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) { return; }
        show(actionError, "");
        var answer = await send("POST", "/v1/schedules/" + id + "/" + button.dataset.action, actions.dataset.csrf);
        if (!answer.ok) { show(actionError, answer.body.message || "That did not work."); return; }
        window.location.reload();
      });
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
          var labels = {};
          try { labels = JSON.parse(table.dataset.labels || "{}"); } catch (err) { labels = {}; }
          var at = document.createElement("td");
          var t = document.createElement("time");
          t.setAttribute("datetime", r.occurrenceAt);
          t.textContent = r.occurrenceAt;
          at.appendChild(t);
          tr.appendChild(at);
          var state = document.createElement("td");
          var badge = document.createElement("span");
          badge.className = "status status-" + String(r.status).toLowerCase();
          badge.dataset.status = r.status;
          badge.textContent = labels[r.status] || r.status;
          state.appendChild(badge);
          tr.appendChild(state);
          var job = document.createElement("td");
          if (r.jobId) {
            var a = document.createElement("a"); a.href = "/jobs/" + r.jobId; a.textContent = "job";
            job.appendChild(a);
          }
          tr.appendChild(job);
          var why = document.createElement("td"); why.textContent = r.reason || ""; tr.appendChild(why);
          tbody.appendChild(tr);
        });
        if (window.agoraLocalise) { window.agoraLocalise(tbody); }
        table.hidden = runs.length === 0;
        none.hidden = runs.length !== 0;
      }
      if (rounds < 600) { setTimeout(poll, rounds < 60 ? 1000 : 5000); }  // bounded
    }
    poll();
  }
})();
