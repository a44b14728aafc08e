/// The HTML templates (Mustache, through swift-mustache, which escapes every `{{value}}`:
/// `&`, `<`, `>`, `"` and `'`). Kept in the source rather than as bundle resources, so that
/// a `grandfather` binary copied anywhere still renders its reports.
///
/// Nothing here is triple-braced (`{{{…}}}`, unescaped) except the style sheet, which is
/// this file's own text.
enum Templates {
    static let styleSheet = """
        :root { --ink: #1d2330; --muted: #5b6475; --line: #d9dde5; --before: #2f6fba; --after: #d9822b;
          --window: #f4e3b5; --unknown: #9aa3b2; --bg: #ffffff; }
        * { box-sizing: border-box; }
        body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink);
          background: var(--bg); margin: 0 auto; padding: 24px; max-width: 1040px; }
        h1 { font-size: 26px; margin: 0 0 4px; }
        h2 { font-size: 19px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
        h3 { font-size: 15px; margin: 18px 0 6px; }
        p.lead { color: var(--muted); margin: 0 0 12px; }
        .status { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: 600; }
        .status.ok { background: #e3f3e6; color: #1d6b32; }
        .status.exceeded { background: #fbe3e1; color: #a12a1f; }
        table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; font-size: 13px; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { background: #f3f5f8; font-weight: 600; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        td.id, code { font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 12px; word-break: break-all; }
        table.facts th { width: 180px; }
        figure { margin: 8px 0 14px; }
        figcaption { color: var(--muted); font-size: 12px; }
        svg { max-width: 100%; height: auto; font-size: 11px; }
        svg text { fill: var(--ink); }
        svg text.value { fill: var(--muted); }
        rect.before, rect.grandfathered { fill: var(--before); }
        rect.after, rect.subscriber { fill: var(--after); }
        rect.lapsed { fill: #8c6bb1; }
        rect.new { fill: #4b9b7a; }
        rect.excluded, rect.unknown { fill: var(--unknown); }
        rect.window { fill: var(--window); }
        line.axis { stroke: var(--muted); stroke-width: 1; }
        line.cutover { stroke: #a12a1f; stroke-width: 2; stroke-dasharray: 4 3; }
        .legend span { display: inline-block; margin-right: 14px; color: var(--muted); font-size: 12px; }
        .legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
        .severity { font-size: 11px; padding: 1px 6px; border-radius: 8px; background: #eef0f4; }
        .severity.review { background: #fdebd3; } .severity.data { background: #fbe3e1; }
        @page { size: A4; margin: 14mm 12mm; }
        @media print {
          body { padding: 0; max-width: none; font-size: 11px; }
          section, figure, tr { break-inside: avoid; }
          h2 { break-after: avoid; }
          section.customers { break-inside: auto; }
        }
        """

    /// Draws a `Chart`.
    static let chart = """
        <figure><svg xmlns="http://www.w3.org/2000/svg" viewBox="{{viewBox}}" width="{{widthText}}" \
        height="{{heightText}}" role="img" \
        aria-label="{{caption}}">{{#rects}}<rect class="{{style}}" x="{{x}}" y="{{y}}" width="{{width}}" \
        height="{{height}}"><title>{{title}}</title></rect>{{/rects}}{{#lines}}<line class="{{style}}" x1="{{x1}}" \
        y1="{{y1}}" x2="{{x2}}" y2="{{y2}}"/>{{/lines}}{{#labels}}<text class="{{style}}" x="{{x}}" y="{{y}}" \
        text-anchor="{{anchor}}">{{text}}</text>{{/labels}}</svg><figcaption>{{caption}}</figcaption></figure>
        """

    /// `report.html`.
    static let report = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Grandfather audit: {{policyName}}, as of {{asOf}}</title>
        <style>{{{styleSheet}}}</style>
        </head>
        <body>
        <header>
        <h1>Grandfather audit</h1>
        <p class="lead">{{policyName}} · as of {{asOf}} · {{customers}} customers</p>
        <p><span class="status {{statusStyle}}">{{statusText}}</span></p>
        {{#trustWarning}}<p><span class="status exceeded">Warning: {{trustWarning}}</span></p>{{/trustWarning}}
        </header>

        <section id="classes">
        <h2>Classes</h2>
        {{#classChart}}{{> chart}}{{/classChart}}
        </section>

        <section id="decision">
        <h2>{{decisionHeading}}</h2>
        {{#paywallLines}}<p>{{.}}</p>{{/paywallLines}}
        <p>{{reviewLine}}</p>
        {{#hasReviewFlags}}<table>
        <tr><th>flag</th><th class="num">customers</th><th>meaning</th></tr>
        {{#reviewFlags}}<tr><td><code>{{code}}</code></td><td class="num">{{count}}</td><td>{{explanation}}</td></tr>
        {{/reviewFlags}}</table>{{/hasReviewFlags}}
        </section>

        <section id="revenue">
        <h2>Revenue at stake</h2>
        <p>{{revenueNote}}</p>
        <table>
        <tr><th>class</th><th class="num">paying customers</th><th>current subscriptions, latest price</th>{{#fx}}\
        <th class="num">in {{currency}}</th>{{/fx}}</tr>
        {{#revenue}}<tr><td>{{name}}</td><td class="num">{{customers}}</td><td>{{amounts}}</td>{{#hasFX}}\
        <td class="num">{{converted}}</td>{{/hasFX}}</tr>
        {{/revenue}}</table>
        {{#fx}}<p>{{note}}</p>{{/fx}}
        </section>

        {{#population}}<section id="population">
        <h2>Paid copies and the customers found</h2>
        <p>What the stores' own sales reports count, set beside the customers the audit grandfathered \
        (copies of report periods that end by the cutover, net of returns).</p>
        {{#warnings}}<p><span class="status exceeded">Warning: {{.}}</span></p>{{/warnings}}{{#empty}}<p>The sales reports given count no copies \
        of an app.</p>{{/empty}}
        {{#stores}}{{#lines}}<p>{{.}}</p>{{/lines}}
        {{#tables}}<table><tr><th>{{heading}}</th><th class="num">paid copies</th>\
        <th class="num">customers grandfathered</th><th class="num">no customer found</th></tr>
        {{#rows}}<tr><td>{{label}}</td><td class="num">{{copies}}</td><td class="num">{{grandfathered}}</td>\
        <td class="num">{{gap}}</td></tr>
        {{/rows}}</table>
        {{/tables}}{{#explanation}}<p>{{.}}</p>{{/explanation}}{{/stores}}
        </section>
        {{/population}}

        <section id="changes">
        <h2>Changes since the previous run</h2>
        <p>{{changesBasis}}</p>
        {{#changesMatrix}}<table>
        <tr><th>from \\ to</th>{{#columns}}<th class="num">{{.}}</th>{{/columns}}</tr>
        {{#rows}}<tr><th>{{from}}</th>{{#cells}}<td class="num">{{.}}</td>{{/cells}}</tr>{{/rows}}
        </table>{{/changesMatrix}}
        {{#changedFlags}}<table><tr><th>flag</th><th class="num">customers added</th>\
        <th class="num">customers removed</th></tr>{{#rows}}<tr><td><code>{{flag}}</code></td><td class="num">{{added}}</td>\
        <td class="num">{{removed}}</td></tr>{{/rows}}</table>{{/changedFlags}}
        </section>

        <section id="flags">
        <h2>Flags</h2>
        <table>
        <tr><th>flag</th><th>severity</th><th class="num">customers</th><th>meaning</th></tr>
        {{#flags}}<tr><td><code>{{code}}</code></td><td><span class="severity {{severity}}">{{severity}}</span></td>\
        <td class="num">{{count}}</td><td>{{explanation}}</td></tr>
        {{/flags}}</table>
        </section>

        {{#reconciliation}}<section id="reconciliation" class="customers">
        <h2>RevenueCat reconciliation</h2>
        <p>Customers with a RevenueCat subscriber response, reconciled: {{reconciled}}. For each, the entitlements \
        RevenueCat has active at the as-of instant are compared with what the policy's verdict grants.</p>
        <table>
        <tr><th>flag</th><th>severity</th><th class="num">customers</th><th>meaning</th></tr>
        {{#flags}}<tr><td><code>{{code}}</code></td><td><span class="severity {{severity}}">{{severity}}</span></td>\
        <td class="num">{{count}}</td><td>{{explanation}}</td></tr>
        {{/flags}}</table>
        <h3>Flagged customers · {{flagged}} customers</h3>
        {{#hasRows}}<p>The first {{listed}} of them, in id order.</p>
        <table><tr><th>customer</th><th>class</th><th>flag</th><th>active in RevenueCat</th>\
        <th>granted by the verdict</th></tr>
        {{#rows}}<tr><td class="id">{{id}}</td><td>{{customerClass}}</td><td><code>{{flags}}</code></td>\
        <td>{{active}}</td><td>{{granted}}</td></tr>
        {{/rows}}</table>
        {{/hasRows}}{{^hasRows}}<p>No reconciled customer is flagged.</p>
        {{/hasRows}}{{#more}}<p>… and {{.}} more: <code>SELECT DISTINCT customer_id FROM customer_flags WHERE flag IN \
        ('grandfathered_not_granted', 'granted_not_entitled')</code></p>{{/more}}
        <p><code>grants.csv</code> and <code>grants.jsonl</code> hold {{grants}} grants: each of the policy's \
        grandfathered entitlements, for life, for every <code>grandfathered_not_granted</code> customer. \
        Written, never sent.</p>
        </section>

        {{/reconciliation}}<section id="timeline">
        <h2>Original purchases around the cutover</h2>
        <p class="legend"><span><i style="background:var(--before)"></i>before the cutover</span>\
        <span><i style="background:var(--after)"></i>after</span>\
        <span><i style="background:var(--window)"></i>edge window ({{windowText}} either side)</span>\
        <span><i style="background:#a12a1f"></i>cutover {{cutoverDate}}</span></p>
        {{#timeline}}{{> chart}}{{/timeline}}
        <p>{{timelineNote}}</p>
        </section>

        <section id="versions">
        <h2>Original versions per platform</h2>
        <p class="legend"><span><i style="background:var(--before)"></i>below the platform's cutover version</span>\
        <span><i style="background:var(--after)"></i>at or above it</span>\
        <span><i style="background:var(--unknown)"></i>not comparable</span></p>
        {{#versionCharts}}<h3>{{platform}}</h3>{{#chart}}{{> chart}}{{/chart}}{{/versionCharts}}
        {{^versionCharts}}<p>No customer has an original version.</p>{{/versionCharts}}
        </section>

        <section id="customers" class="customers">
        <h2>Customers by flag</h2>
        <p>The first {{listed}} customers of each flag, in id order, with their class and the rule that decided it. \
        <code>grandfather explain ID</code> tells a customer's whole story.</p>
        {{#flagLists}}<h3><code>{{code}}</code> · {{count}} customers</h3>
        <p>{{explanation}}</p>
        <table><tr><th>customer</th><th>class</th><th>why</th></tr>
        {{#customers}}<tr><td class="id">{{id}}</td><td>{{customerClass}}</td><td>{{reason}}</td></tr>
        {{/customers}}</table>
        {{#more}}<p>… and {{.}} more: <code>SELECT customer_id FROM customer_flags WHERE flag = '{{code}}'</code></p>{{/more}}
        {{/flagLists}}
        </section>

        <section id="run">
        <h2>The run</h2>
        <table class="facts">{{#facts}}<tr><th>{{label}}</th><td>{{value}}</td></tr>{{/facts}}</table>
        <h3>Inputs and data quality</h3>
        <table>
        <tr><th>file</th><th>kind</th><th>format</th><th class="num">bytes</th><th>SHA-256</th>\
        <th class="num">rows read</th><th class="num">accepted</th><th class="num">rejected</th>\
        <th class="num">exact duplicates</th><th class="num">superseded</th><th class="num">sandbox rows</th></tr>
        {{#inputs}}<tr><td class="id">{{path}}</td><td>{{kind}}</td><td>{{format}}</td><td class="num">{{size}}</td>\
        <td><code>{{sha256}}</code></td><td class="num">{{read}}</td><td class="num">{{accepted}}</td>\
        <td class="num">{{rejected}}</td><td class="num">{{duplicates}}</td><td class="num">{{superseded}}</td><td class="num">{{sandbox}}</td></tr>
        {{/inputs}}<tr><th>all</th><th></th><th></th><th></th><th></th><th class="num">{{rowsRead}}</th>\
        <th class="num">{{rowsAccepted}}</th><th class="num">{{rowsRejected}}</th><th></th><th></th><th></th></tr>
        </table>
        <p>Every file: rows read = accepted + rejected. Rejected fraction {{rejectedFraction}} \
        (max {{maxRejectedFraction}}); each rejected row is listed in <code>rejected.csv</code>.</p>
        {{#appStoreLines}}<p>{{.}}</p>{{/appStoreLines}}{{#productLines}}<p>{{.}}</p>{{/productLines}}
        </section>

        <footer><p class="lead">grandfather {{toolVersion}} · policy sha256 <code>{{policyDigest}}</code></p></footer>
        </body>
        </html>

        """

    /// `compare.html`, the dry run's page.
    static let compare = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Grandfather dry run: two policies compared</title>
        <style>{{{styleSheet}}}</style>
        </head>
        <body>
        <header>
        <h1>Dry run: two policies compared</h1>
        <p class="lead">as of {{asOf}} · {{customers}} customers · {{differing}} treated differently</p>
        {{#trustWarning}}<p><span class="status exceeded">Warning: {{trustWarning}}</span></p>{{/trustWarning}}
        {{#appStoreLines}}<p>{{.}}</p>{{/appStoreLines}}
        </header>

        <section id="policies">
        <h2>The policies</h2>
        <table class="facts"><tr><th>A</th><td>{{policyA}}</td></tr><tr><th>B</th><td>{{policyB}}</td></tr></table>
        </section>

        <section id="matrix">
        <h2>Classes, A to B</h2>
        {{#chart}}{{> chart}}{{/chart}}
        <table>
        <tr><th>A \\ B</th>{{#columns}}<th class="num">{{.}}</th>{{/columns}}</tr>
        {{#rows}}<tr><th>{{from}}</th>{{#cells}}<td class="num">{{.}}</td>{{/cells}}</tr>{{/rows}}
        </table>
        </section>

        <section id="revenue">
        <h2>Revenue at stake moving between classes</h2>
        {{#hasMovements}}<table><tr><th>from A</th><th>to B</th><th class="num">paying customers</th>\
        <th>current subscriptions, latest price</th></tr>
        {{#movements}}<tr><td>{{from}}</td><td>{{to}}</td><td class="num">{{customers}}</td><td>{{amounts}}</td></tr>
        {{/movements}}</table>{{/hasMovements}}
        {{^hasMovements}}<p>No paying customer changes class.</p>{{/hasMovements}}
        </section>

        <section id="flags">
        <h2>Flags gained and lost</h2>
        {{#hasFlags}}<table><tr><th>flag</th><th class="num">customers gaining it</th>\
        <th class="num">customers losing it</th></tr>
        {{#flags}}<tr><td><code>{{flag}}</code></td><td class="num">{{gained}}</td><td class="num">{{lost}}</td></tr>
        {{/flags}}</table>{{/hasFlags}}
        {{^hasFlags}}<p>No customer gains or loses a flag.</p>{{/hasFlags}}
        </section>

        <section id="customers" class="customers">
        <h2>Customers treated differently</h2>
        <p>Class or entitlements differ. <code>compare.csv</code> lists every one.</p>
        <table><tr><th>customer</th><th>class A</th><th>class B</th><th>entitlements A</th><th>entitlements B</th>\
        <th>flags gained</th><th>flags lost</th></tr>
        {{#differences}}<tr><td class="id">{{id}}</td><td>{{classA}}</td><td>{{classB}}</td><td>{{entitlementsA}}</td>\
        <td>{{entitlementsB}}</td><td>{{flagsGained}}</td><td>{{flagsLost}}</td></tr>
        {{/differences}}</table>
        {{#more}}<p>… and {{.}} more in <code>compare.csv</code>.</p>{{/more}}
        </section>
        </body>
        </html>

        """
}
