/* report.js - sorting and filtering of report.html (polltax report); inlined
 * into the page at build time (tool/mk/report.mk).  The tables are complete
 * without it; the script only reorders and hides rows.
 *
 * Opened as report.html#selftest (or #selftest:NAME) the page checks itself
 * (sorting changes the row order, a class filter reduces the rows, the text
 * box finds NAME, a section of the view by MAINTAINERS section shows as
 * many rows as it counts) and writes the verdicts into #selftest, for
 * tests/browser.t.sh.  The filters are reset afterwards.
 *
 * The filters are kept in the hash (#class=C&conv=V&sub=S&sec=SECTION&q=TEXT):
 * a page opened with them shows that view.  sec is a MAINTAINERS section
 * (the view by section, #sections, links to it); scans that record no
 * section have no such filter. */
(function () {
	'use strict';
	var errors = [];
	window.addEventListener('error', function (e) { errors.push(String(e.message)); });

	function $(sel, root) { return (root || document).querySelector(sel); }
	function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
	var NUM = /^-?[0-9]+(\.[0-9]+)?$/;

	function key(row, col) {
		var c = row.cells[col];
		if (!c)
			return '';
		var v = c.getAttribute('data-v');
		return v !== null ? v : c.textContent.trim().toLowerCase();
	}
	function cmp(a, b) {
		if (NUM.test(a) && NUM.test(b))
			return parseFloat(a) - parseFloat(b);
		return a < b ? -1 : a > b ? 1 : 0;
	}

	/* Sort a table's first tbody by column col; stable, so ties keep the
	 * previous order. */
	function sortTable(table, col, dir) {
		var body = table.tBodies[0];
		var rows = Array.prototype.slice.call(body.rows).map(function (r, i) {
			return { r: r, k: key(r, col), i: i };
		});
		rows.sort(function (a, b) { return dir * cmp(a.k, b.k) || a.i - b.i; });
		rows.forEach(function (x) { body.appendChild(x.r); });
		$$('th', table.tHead).forEach(function (th) { th.removeAttribute('aria-sort'); });
		table.tHead.rows[0].cells[col].setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
	}
	$$('table.sortable').forEach(function (table) {
		$$('th[data-sort]', table.tHead).forEach(function (th) {
			function go() {
				var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
				sortTable(table, th.cellIndex, dir);
			}
			th.tabIndex = 0;
			th.addEventListener('click', go);
			th.addEventListener('keydown', function (e) { if (e.key === 'Enter') go(); });
		});
	});

	var impl = $('#impl');
	if (!impl)
		return;
	var rows = Array.prototype.slice.call(impl.tBodies[0].rows);
	var fClass = $('#f-class'), fConv = $('#f-conv'), fSub = $('#f-sub'), fText = $('#f-text');
	/* a scan without MAINTAINERS sections has no such select: a stand-in that is always empty */
	var fSec = $('#f-sec') || { value: '', tagName: 'NONE', addEventListener: function () {} };

	function visible() { return rows.filter(function (r) { return !r.hidden; }); }
	function apply() {
		var c = fClass.value, v = fConv.value, s = fSub.value, q = fText.value.trim().toLowerCase();
		var m = fSec.value;
		var n = 0;
		rows.forEach(function (r) {
			var ok = (!c || r.getAttribute('data-class') === c) && (!v || r.getAttribute('data-conv') === v) &&
				(!s || r.getAttribute('data-sub') === s) && (!m || r.getAttribute('data-sec') === m) &&
				(!q || r.getAttribute('data-name').indexOf(q) >= 0);
			r.hidden = !ok;
			if (ok)
				n++;
		});
		$('#f-count').textContent = n === rows.length ? 'all ' + n + ' rows' : n + ' of ' + rows.length + ' rows';
	}
	function reset() {
		fClass.value = fConv.value = fSub.value = fSec.value = fText.value = '';
		apply();
	}

	/* The filters live in the URL's hash, #class=C&conv=V&sub=S&q=TEXT, so
	 * that a link can be sent to a filtered view; replaceState keeps the
	 * history as it was. */
	var FILTERS = [['class', fClass], ['conv', fConv], ['sub', fSub], ['sec', fSec], ['q', fText]];
	function toHash() {
		var parts = [];
		FILTERS.forEach(function (f) {
			if (f[1].value)
				parts.push(f[0] + '=' + encodeURIComponent(f[1].value));
		});
		var h = parts.length ? '#' + parts.join('&') : '';
		if (/^#selftest/.test(location.hash))
			return;
		if (h !== location.hash && !(h === '' && !/=/.test(location.hash)) && history.replaceState)
			history.replaceState(null, '', location.pathname + location.search + (h || '#implementations'));
	}
	function fromHash() {
		var h = location.hash.replace(/^#/, ''), any = false;
		if (!/=/.test(h) || /^selftest/.test(h))
			return false;
		h.split('&').forEach(function (kv) {
			var i = kv.indexOf('='), k = kv.slice(0, i), v;
			try {
				v = decodeURIComponent(kv.slice(i + 1).replace(/\+/g, ' '));
			} catch (e) {
				return;
			}
			FILTERS.forEach(function (f) {
				if (f[0] !== k)
					return;
				/* a select keeps only a value it offers */
				if (f[1].tagName === 'SELECT' && !$$('option', f[1]).some(function (o) { return o.value === v; }))
					return;
				f[1].value = v;
				any = true;
			});
		});
		return any;
	}
	function applyAndSave() {
		apply();
		toHash();
	}
	[fClass, fConv, fSub, fSec].forEach(function (el) { el.addEventListener('change', applyAndSave); });
	fText.addEventListener('input', applyAndSave);
	$('#f-reset').addEventListener('click', function () { reset(); toHash(); });

	/* class, convertible, subsystem and section names elsewhere on the page filter the table */
	$$('[data-fclass],[data-fconv],[data-fsub],[data-fsec]').forEach(function (el) {
		el.addEventListener('click', function (e) {
			e.preventDefault();
			reset();
			if (el.hasAttribute('data-fclass')) fClass.value = el.getAttribute('data-fclass');
			if (el.hasAttribute('data-fconv')) fConv.value = el.getAttribute('data-fconv');
			if (el.hasAttribute('data-fsub')) fSub.value = el.getAttribute('data-fsub');
			if (el.hasAttribute('data-fsec')) fSec.value = el.getAttribute('data-fsec');
			applyAndSave();
			$('#implementations').scrollIntoView();
		});
	});
	var fromLink = fromHash();
	apply();
	if (fromLink)
		$('#implementations').scrollIntoView();

	function selftest(name) {
		var res = {}, total = rows.length;
		var names = function () {
			return Array.prototype.slice.call(impl.tBodies[0].rows).map(function (r) { return key(r, 0); });
		};
		var before = names().join('\n');
		var th = impl.tHead.rows[0].cells[0];
		th.click();
		var asc = names(), sorted = asc.slice().sort(cmp);
		res.sort = before !== asc.join('\n') && asc.join('\n') === sorted.join('\n') ? 'pass' : 'fail';
		th.click();
		res['sort-descending'] = names().join('\n') === sorted.slice().reverse().join('\n') ? 'pass' : 'fail';

		/* the class with the fewest rows, but some */
		var best = null;
		$$('option', fClass).forEach(function (o) {
			var n = rows.filter(function (r) { return r.getAttribute('data-class') === o.value; }).length;
			if (o.value && n > 0 && (!best || n < best.n))
				best = { v: o.value, n: n };
		});
		if (best) {
			fClass.value = best.v;
			fClass.dispatchEvent(new Event('change'));
			var vis = visible();
			res['filter-class'] = vis.length === best.n && vis.length < total &&
				vis.every(function (r) { return r.getAttribute('data-class') === best.v; }) ? 'pass' : 'fail';
		} else {
			res['filter-class'] = 'fail';
		}
		reset();

		if (!name)
			name = key(rows[0], 0);
		fText.value = name;
		fText.dispatchEvent(new Event('input'));
		var found = visible();
		res['filter-text'] = found.length >= 1 && found.length < total &&
			found.every(function (r) { return r.getAttribute('data-name').indexOf(name.toLowerCase()) >= 0; })
			? 'pass' : 'fail';
		res['filter-text-rows'] = String(found.length);
		reset();

		/* the view by MAINTAINERS section: a section's link shows its implementations, as many as it counts */
		var secs = $('#secs');
		if (secs && $('#f-sec')) {
			var srows = Array.prototype.slice.call(secs.tBodies[0].rows), pick = null;
			srows.forEach(function (r) {
				var n = parseInt(r.cells[1].textContent, 10);
				if (n > 0 && (!pick || n < pick.n))
					pick = { r: r, n: n, sec: r.getAttribute('data-sec') };
			});
			if (pick) {
				$('a[data-fsec]', pick.r).click();
				var shown = visible();
				res['filter-section'] = shown.length === pick.n && shown.length < total &&
					fSec.value === pick.sec &&
					shown.every(function (r) { return r.getAttribute('data-sec') === pick.sec; }) ? 'pass' : 'fail';
				res['filter-section-name'] = pick.sec;
			} else {
				res['filter-section'] = 'fail';
			}
			reset();
			var totalTh = secs.tHead.rows[0].cells[1];
			totalTh.click();
			var tot = Array.prototype.slice.call(secs.tBodies[0].rows).map(function (r) { return key(r, 1); });
			res['sort-sections'] = tot.every(function (v, i) { return !i || cmp(tot[i - 1], v) <= 0; }) ? 'pass' : 'fail';
			sortTable(secs, 0, 1);
		} else {
			res['filter-section'] = 'fail';
		}
		sortTable(impl, 1, 1);

		var out = $('#selftest'), ok = true, text = [];
		Object.keys(res).forEach(function (k) {
			if (res[k] === 'fail')
				ok = false;
			out.setAttribute('data-' + k, res[k]);
			text.push(k + '=' + res[k]);
		});
		if (errors.length)
			ok = false;
		out.setAttribute('data-errors', errors.join('; '));
		out.setAttribute('data-result', ok ? 'pass' : 'fail');
		out.textContent = 'selftest ' + (ok ? 'pass' : 'fail') + ': ' + text.join(' ') +
			(errors.length ? ' errors: ' + errors.join('; ') : '');
	}
	var m = /^#selftest(?::(.*))?$/.exec(location.hash);
	if (m) {
		try {
			selftest(m[1] ? decodeURIComponent(m[1]) : '');
		} catch (e) {
			var out = $('#selftest');
			out.setAttribute('data-result', 'fail');
			out.textContent = 'selftest fail: exception ' + e;
		}
	}
})();
