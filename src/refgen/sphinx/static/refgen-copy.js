// refgen: "Copy as Python" buttons. Each copies the text of the code block in its box
// (a registry entry's imports and construction), exactly as the page shows it. No network.
(function () {
  "use strict";

  function fallbackCopy(text) {
    // Pages opened from disk or over plain HTTP may have no asynchronous clipboard.
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } finally {
      document.body.removeChild(area);
    }
    return copied ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () {
        return fallbackCopy(text);
      });
    }
    return fallbackCopy(text);
  }

  function say(button, message) {
    var status = button.nextElementSibling;
    if (status && status.classList.contains("refgen-copy-status")) {
      status.textContent = message;
      window.setTimeout(function () { status.textContent = ""; }, 2000);
    }
  }

  function copy(event) {
    var button = event.currentTarget;
    var code = button.closest(".refgen-copyable").querySelector("pre");
    if (!code) return;
    var text = code.textContent.replace(/\n$/, "");
    copyText(text).then(
      function () { say(button, "Copied"); },
      function () { say(button, "Select the code and copy it"); }
    );
  }

  function ready() {
    document.querySelectorAll("button[data-refgen-copy]").forEach(function (button) {
      button.addEventListener("click", copy);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
