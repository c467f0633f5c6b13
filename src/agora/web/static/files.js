// File fields of hire forms (docs/files.md): a picked or dropped file is uploaded to
// POST /v1/files (the session cookie and its CSRF token) and its id goes into the field's text
// box, which the form sends as the input. Without JavaScript the text box takes an id or a link.
"use strict";
(function () {
  function csrfToken(form) {
    var field = form && form.querySelector("input[name=csrf]");
    return field ? field.value : "";
  }
  function upload(picker, file) {
    var target = document.getElementById(picker.dataset.uploadFor);
    var status = document.getElementById(picker.dataset.uploadFor + "-status");
    if (!target || !file) { return; }
    var body = new FormData();
    body.append("file", file, file.name);
    status.textContent = "Uploading " + file.name + "…";
    fetch("/v1/files", {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRF-Token": csrfToken(picker.form) }
    }).then(function (r) {
      return r.json().then(function (data) { return { ok: r.ok, data: data }; });
    }).then(function (answer) {
      if (answer.ok) {
        target.value = answer.data.data.id;
        status.textContent = "Uploaded " + answer.data.data.name + " (" + answer.data.data.size + " bytes).";
      } else {
        status.textContent = "Not uploaded: " + (answer.data.message || "refused");
      }
    }).catch(function () { status.textContent = "Not uploaded: the upload failed."; });
  }
  function setUp() {
    document.querySelectorAll("input[data-upload-for]").forEach(function (picker) {
      if (picker.dataset.ready) { return; }
      picker.dataset.ready = "true";
      picker.addEventListener("change", function () { upload(picker, picker.files[0]); });
      var zone = picker.closest("[data-file-drop]");
      if (!zone) { return; }
      zone.addEventListener("dragover", function (e) { e.preventDefault(); zone.classList.add("over"); });
      zone.addEventListener("dragleave", function () { zone.classList.remove("over"); });
      zone.addEventListener("drop", function (e) {
        e.preventDefault();
        zone.classList.remove("over");
        if (e.dataTransfer && e.dataTransfer.files.length) { upload(picker, e.dataTransfer.files[0]); }
      });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
