// The compose form's helpers in Fedpod's web app. The form works without them; they only put the
// cursor after a reply's prefilled mention, and show a chosen image so that a click on it sets its
// focal point (the form's x and y fields, from -1 to 1, y upwards as Mastodon's `focus`).
(function () {
  'use strict';

  // A reply starts with "@author ": the cursor goes after it, not before.
  function afterPrefill(area) {
    if (area.dataset.prefillDone) {
      return;
    }
    area.dataset.prefillDone = 'true';
    var end = area.value.length;
    area.setSelectionRange(end, end);
  }

  function round(value) {
    return Math.round(Math.min(1, Math.max(-1, value)) * 100) / 100;
  }

  function showFocus(preview, x, y) {
    var marker = preview.querySelector('.marker');
    marker.style.left = ((x + 1) / 2 * 100) + '%';
    marker.style.top = ((1 - y) / 2 * 100) + '%';
    marker.hidden = false;
  }

  function attach(slot) {
    var file = slot.querySelector('input[type="file"]');
    var focusX = slot.querySelector('input[name^="focus_x_"]');
    var focusY = slot.querySelector('input[name^="focus_y_"]');
    if (!file || !focusX || !focusY) {
      return;
    }
    var preview = document.createElement('div');
    preview.className = 'preview';
    preview.hidden = true;
    // The image is read as a data: URL: the page's Content-Security-Policy allows no blob: images.
    preview.innerHTML = '<img alt=""><span class="marker" hidden></span>';
    var hint = document.createElement('p');
    hint.className = 'meta';
    hint.hidden = true;
    hint.textContent = 'Click the picture on the part that must stay in view when it is cut.';
    file.insertAdjacentElement('afterend', hint);
    hint.insertAdjacentElement('beforebegin', preview);
    var image = preview.querySelector('img');

    file.addEventListener('change', function () {
      var chosen = file.files && file.files[0];
      preview.hidden = true;
      hint.hidden = true;
      if (!chosen || chosen.type.indexOf('image/') !== 0) {
        return;
      }
      var reader = new window.FileReader();
      reader.addEventListener('load', function () {
        image.src = String(reader.result);
        preview.hidden = false;
        hint.hidden = false;
      });
      reader.readAsDataURL(chosen);
    });

    image.addEventListener('click', function (event) {
      var box = image.getBoundingClientRect();
      var x = round((event.clientX - box.left) / box.width * 2 - 1);
      var y = round(1 - (event.clientY - box.top) / box.height * 2);
      focusX.value = String(x);
      focusY.value = String(y);
      showFocus(preview, x, y);
    });
  }

  function start() {
    var areas = document.querySelectorAll('form.compose textarea[data-prefilled]');
    for (var i = 0; i < areas.length; i += 1) {
      var area = areas[i];
      if (document.activeElement === area) {
        afterPrefill(area);
      }
      area.addEventListener('focus', afterPrefill.bind(null, area));
    }
    var slots = document.querySelectorAll('form.compose fieldset.attachment');
    for (var j = 0; j < slots.length; j += 1) {
      attach(slots[j]);
    }
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
}());
