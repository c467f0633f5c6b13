// "Buy credits": the card goes to Stripe.js (createPaymentMethod), never to Agora; Agora's API
// makes the purchase and confirms its PaymentIntent with that payment method; 3-D Secure sends
// the buyer to Stripe's page (next_action redirect_to_url), which returns them to the receipt;
// the credits arrive from Stripe's webhook, which this page waits for
// (GET /v1/credits/purchases/{id}, bounded). docs/billing.md.
"use strict";
(function () {
  var form = document.getElementById("buy");
  if (!form || typeof window.Stripe !== "function") { return; }
  var stripe = window.Stripe(form.dataset.key);
  var card = stripe.elements().create("card");
  card.mount("#card-element");
  var errorBox = document.getElementById("buy-error");
  var statusBox = document.getElementById("buy-status");
  var button = document.getElementById("pay");

  function show(box, text) { box.textContent = text; box.hidden = !text; }
  function fail(text) {
    show(statusBox, "");
    show(errorBox, text || "The payment did not go through.");
    button.disabled = false;
  }
  async function api(method, path, body) {
    var response = await fetch(path, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": form.dataset.csrf },
      body: body ? JSON.stringify(body) : undefined,
    });
    var data = await response.json().catch(function () { return {}; });
    return { ok: response.ok, data: data.data, message: data.message || data.error };
  }
  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

  async function waitForCredits(id) {
    for (var i = 0; i < 120; i++) {  // at most a minute
      var got = await api("GET", "/v1/credits/purchases/" + id);
      if (got.ok && got.data.status === "paid") { return got.data; }
      if (got.ok && got.data.status === "failed") { throw new Error(got.data.failureMessage); }
      await sleep(500);
    }
    throw new Error("Stripe has not confirmed the payment yet; the credits will appear on the credits page when it does.");
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    button.disabled = true;
    show(errorBox, "");
    show(statusBox, "Paying…");
    try {
      var created = await stripe.createPaymentMethod({ type: "card", card: card });
      if (created.error) { return fail(created.error.message); }
      var id = form.dataset.purchase;
      if (!id) {
        var chosen = form.querySelector("input[name=pack]:checked");
        if (!chosen) { return fail("Choose a pack."); }
        var body = { packId: chosen.value };
        var code = form.querySelector("input[name=promotionCode]");
        if (code && code.value.trim()) { body.promotionCode = code.value.trim(); }
        var made = await api("POST", "/v1/credits/purchases", body);
        if (!made.ok) { return fail(made.message); }
        id = made.data.id;
      }
      var paid = await api("POST", "/v1/credits/purchases/" + id + "/pay", { paymentMethod: created.paymentMethod.id });
      form.dataset.purchase = "";  // a declined purchase is final: the next try starts another
      if (!paid.ok) { return fail(paid.message); }
      if (paid.data.status === "failed") { return fail(paid.data.failureMessage); }
      if (paid.data.redirectUrl) {  // 3-D Secure on Stripe's page; it comes back to the receipt
        show(statusBox, "Your bank asks you to confirm the payment…");
        window.location.assign(paid.data.redirectUrl);
        return;
      }
      if (paid.data.nextAction) {
        var handled = await stripe.handleNextAction({ clientSecret: paid.data.clientSecret });
        if (handled.error) { return fail(handled.error.message); }
      }
      show(statusBox, "Payment accepted; waiting for Stripe's confirmation…");
      var done = await waitForCredits(id);
      show(statusBox, done.credits + " credits added.");
      button.hidden = true;
      document.getElementById("buy-done").hidden = false;
      var account = await api("GET", "/v1/credits?limit=1");
      var header = document.getElementById("header-balance");
      if (account.ok && header) { header.textContent = account.data.balance + " credits"; }
    } catch (err) {
      fail(err && err.message);
    }
  });
})();
