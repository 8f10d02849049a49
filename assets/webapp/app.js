// Live updates of Fedpod's web app: new posts on the home timeline and on the public timeline a page
// shows (its container names the stream: data-stream, and data-tag for a hashtag), new notifications on their page
// and as a count in the navigation. The pages work without it; it only listens to the server's
// event stream of the logged-in reader (same origin, the session cookie) and inserts the HTML the
// server rendered for each event.
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || typeof window.EventSource !== 'function') {
    return;
  }
  var live = script.src.replace(/app\.js(\?.*)?$/, 'live');
  var timeline = document.querySelector('[data-stream]');
  if (timeline) {
    live += '?stream=' + encodeURIComponent(timeline.getAttribute('data-stream')) +
      (timeline.hasAttribute('data-tag') ? '&tag=' + encodeURIComponent(timeline.getAttribute('data-tag')) : '');
  }
  var source = new window.EventSource(live);
  var unseen = 0;

  function insert(container, html) {
    var empty = container.querySelector('[data-empty]');
    if (empty) {
      empty.remove();
    }
    container.insertAdjacentHTML('afterbegin', html);
  }

  source.addEventListener('status', function (event) {
    var data = JSON.parse(event.data);
    var list = document.querySelector('[data-live="' + (data.stream || 'home') + '"]');
    if (list && !document.getElementById('status-' + data.id)) {
      insert(list, data.html);
    }
  });

  source.addEventListener('notification', function (event) {
    var data = JSON.parse(event.data);
    var list = document.querySelector('[data-live="notifications"]');
    if (list) {
      insert(list, data.html);
      return;
    }
    unseen += 1;
    var badge = document.querySelector('[data-live="count"]');
    if (badge) {
      badge.textContent = String(unseen);
      badge.setAttribute('aria-label', unseen + ' new');
      badge.hidden = false;
    }
  });

  source.addEventListener('delete', function (event) {
    var gone = document.getElementById('status-' + JSON.parse(event.data).id);
    if (gone) {
      gone.remove();
    }
  });
}());
