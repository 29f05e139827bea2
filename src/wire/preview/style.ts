// The one stylesheet of the sandbox's pages and of a preview file: system fonts only (nothing is
// fetched), light and dark from prefers-color-scheme, one column below 700 px, where the rows of a
// .stack table become blocks (no column squeezed to a few letters, no control hidden sideways). Service
// text may hold a word longer than the screen: it wraps (.wrap cells, .preview) rather than widen a table.
export const PAGE_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--card:#f6f8fa;--line:#d0d7de;--accent:#0550ae;--bad:#b3261e;--ok:#116329;--warn:#7d4e00}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#161b22;--line:#30363d;--accent:#6cb6ff;--bad:#ff7b72;--ok:#56d364;--warn:#e3b341}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1200px;margin:0 auto;padding:16px;overflow-wrap:break-word}h1{font-size:1.4rem;margin:.2em 0 .6em}h2{font-size:1.15rem;margin:1.2em 0 .5em}h3{font-size:1rem;margin:0 0 .4em}
small,.source,.muted{color:var(--muted)}a{color:var(--accent)}code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.top{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:center;padding:10px 16px;border-bottom:1px solid var(--line);background:var(--card)}
.top strong{margin-right:8px}.top a[aria-current]{font-weight:700;text-decoration:none}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px;margin:0 0 12px}
.previews{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:12px}
.preview{min-width:0;overflow-wrap:anywhere}
.text{white-space:pre-wrap;overflow-wrap:anywhere}.more{color:var(--muted);font-weight:600}
.hidden-part{display:block;margin-top:6px;padding-left:8px;border-left:3px dashed var(--line);color:var(--muted)}
.thread{padding-left:0;list-style:none}.thread li{border-left:2px solid var(--line);padding-left:10px;margin-bottom:8px}.part{font-weight:700;color:var(--muted)}
.media{padding-left:18px}.warn{color:var(--warn)}.bad{color:var(--bad)}.ok{color:var(--ok)}.label{font-weight:600;color:var(--muted)}
.fields{font-size:13px;overflow-wrap:anywhere}.field{margin-right:.8em;unicode-bidi:isolate}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}.scroll{overflow-x:auto}.id{white-space:nowrap}td.wrap{overflow-wrap:anywhere}main a[aria-current]{font-weight:700;text-decoration:none}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px}
.week{display:grid;grid-template-columns:repeat(7,minmax(0,1fr));gap:6px}.day{min-height:80px}.day h3{font-size:.85rem}
.week .item{display:block;font-size:13px;margin:2px 0;overflow-wrap:anywhere}
button,select,input{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:4px 10px}
button{cursor:pointer;white-space:nowrap}button:hover{border-color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
form.inline{display:inline}.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:end;margin-bottom:10px}.filters label{display:flex;flex-direction:column;font-size:13px}
.live{font-size:13px;color:var(--muted)}
@media (max-width:700px){main{padding:10px}.week{grid-template-columns:1fr}.day{min-height:0}.day.empty:not(.today){display:none}td{overflow-wrap:break-word}td button{margin:0 0 4px}.previews{grid-template-columns:1fr}th,td{padding:5px 4px}.wide{display:none}
.stack thead{display:none}.stack tr{display:block;border-bottom:1px solid var(--line);padding:4px 0}.stack td{display:inline-block;border:0;padding:2px 10px 2px 0}.stack td:last-child{display:block}.stack td.wide{display:none}}
`;
