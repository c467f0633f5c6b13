// Passkeys (WebAuthn; docs/accounts.md, "Passkeys"): the browser's half of the ceremonies.
// The server's options come as JSON with binary fields in base64url; this turns them into
// ArrayBuffers for navigator.credentials.create/get and the answer back into JSON for
// /v1/auth/passkeys/* (same origin: the session cookie, and X-CSRF-Token when signed in).
// Sections marked data-passkey="sign-in" | "second-step" | "add" are shown only where the
// browser has WebAuthn.
"use strict";
(function () {
  if (!window.PublicKeyCredential || !navigator.credentials) { return; }

  function fromB64url(text) {
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) { b64 += "="; }
    var raw = atob(b64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes.buffer;
  }

  function toB64url(buffer) {
    var bytes = new Uint8Array(buffer);
    var raw = "";
    for (var i = 0; i < bytes.length; i++) { raw += String.fromCharCode(bytes[i]); }
    return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (d) {
      return { type: d.type, id: fromB64url(d.id), transports: d.transports };
    });
  }

  function creationOptions(o) {
    var options = Object.assign({}, o);
    options.challenge = fromB64url(o.challenge);
    options.user = Object.assign({}, o.user, { id: fromB64url(o.user.id) });
    options.excludeCredentials = descriptors(o.excludeCredentials);
    return options;
  }

  function requestOptions(o) {
    var options = Object.assign({}, o);
    options.challenge = fromB64url(o.challenge);
    options.allowCredentials = descriptors(o.allowCredentials);
    return options;
  }

  function credentialJSON(credential) {
    var r = credential.response;
    var response = { clientDataJSON: toB64url(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toB64url(r.attestationObject);
      response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      response.authenticatorData = toB64url(r.authenticatorData);
      response.signature = toB64url(r.signature);
      if (r.userHandle) { response.userHandle = toB64url(r.userHandle); }
    }
    return {
      id: credential.id,
      rawId: toB64url(credential.rawId),
      type: credential.type,
      response: response,
      clientExtensionResults: credential.getClientExtensionResults(),
      authenticatorAttachment: credential.authenticatorAttachment || undefined
    };
  }

  async function post(url, body, csrf) {
    var headers = { "Content-Type": "application/json" };
    if (csrf) { headers["X-CSRF-Token"] = csrf; }
    var response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: headers,
      body: JSON.stringify(body || {})
    });
    var answer = await response.json().catch(function () { return {}; });
    if (!response.ok) {
      var detail = answer.details && answer.details[0] ? answer.details[0].reason : "";
      throw new Error(answer.message || detail || ("HTTP " + response.status));
    }
    return answer.data;
  }

  function failed(section, error) {
    var box = section.querySelector("#passkey-error");
    if (!box) { return; }
    var message = error && error.name === "NotAllowedError"
      ? "The passkey was not used (cancelled or timed out). Try again."
      : (error && error.message) || "Something went wrong.";
    box.textContent = message;
    box.hidden = false;
  }

  function go(next) {
    window.location.assign(next && next.charAt(0) === "/" && next.charAt(1) !== "/" ? next : "/agents");
  }

  // Sign in with a passkey and no password (the sign-in page).
  var signIn = document.querySelector("[data-passkey=sign-in]");
  if (signIn) {
    signIn.hidden = false;
    signIn.querySelector("button").addEventListener("click", async function () {
      try {
        var options = await post("/v1/auth/passkeys/sign-in-options");
        var credential = await navigator.credentials.get({ publicKey: requestOptions(options.publicKey) });
        await post("/v1/auth/passkeys/sign-in", { credential: credentialJSON(credential) });
        go(signIn.dataset.next);
      } catch (error) { failed(signIn, error); }
    });
  }

  // The second step after the password (its options, and challenge, are in the page).
  var second = document.querySelector("[data-passkey=second-step]");
  if (second) {
    var button = second.querySelector("button");
    button.hidden = false;
    button.addEventListener("click", async function () {
      try {
        var options = requestOptions(JSON.parse(second.dataset.options));
        var credential = await navigator.credentials.get({ publicKey: options });
        await post("/v1/auth/passkeys/second-step", { credential: credentialJSON(credential) });
        go(second.dataset.next);
      } catch (error) { failed(second, error); }
    });
  }

  // Add a passkey (the passkeys settings page).
  var add = document.querySelector("[data-passkey=add]");
  if (add) {
    var form = add.querySelector("form");
    add.querySelector("button").hidden = false;
    form.addEventListener("submit", async function (event) {
      event.preventDefault();
      try {
        var csrf = add.dataset.csrf;
        var options = await post("/v1/auth/passkeys/registration-options", {}, csrf);
        var credential = await navigator.credentials.create({ publicKey: creationOptions(options.publicKey) });
        await post("/v1/auth/passkeys", {
          name: form.querySelector("input[name=name]").value,
          credential: credentialJSON(credential)
        }, csrf);
        window.location.reload();
      } catch (error) { failed(add, error); }
    });
  }
})();
