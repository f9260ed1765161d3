#!/usr/bin/env python3
"""Copies ToolScale's ten domains' data into this folder in the form the playground ships.

Usage:  python3 workers/domains/tau2/toolscale/import_toolscale_data.py DATA_DIR
where DATA_DIR is a checkout's `data/tau2` (NVlabs/ToolOrchestra, or a fork: it holds
`domains/<domain>/{db.json,policy.md}`). Standard library only.

  - db.json is rewritten compact (no indentation): bank's is 1.6 MB and basketball's 1.5 MB as
    shipped, each well under the repository's 2 MB limit per file once compact. Python reads and
    writes the numbers, so `100.0` stays a float and `100` an int (our loader keeps that
    difference, as pydantic does).
  - policy.md is copied byte for byte.
The task sets are not in the reference repository; tasks.json here is ours (docs/evaluation.md).
The tool schemas and the cross-check fixtures come from e2e/fixtures/toolscale/reference_toolscale.py.
Licences: τ²-Bench (MIT, Sierra Research), ToolOrchestra (Apache-2.0); docs/data-licences.md.
"""

import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOMAINS = ('bank', 'basketball', 'ecommerce', 'medicine', 'movie', 'railway', 'restaurant', 'school', 'travel', 'weather')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    source = os.path.join(sys.argv[1], 'domains')
    for domain in DOMAINS:
        os.makedirs(os.path.join(HERE, domain), exist_ok=True)
        with open(os.path.join(source, domain, 'db.json'), encoding='utf-8') as f:
            db = json.load(f)
        with open(os.path.join(HERE, domain, 'db.json'), 'w', encoding='utf-8') as out:
            json.dump(db, out, ensure_ascii=False, separators=(',', ':'))
            out.write('\n')
        shutil.copyfile(os.path.join(source, domain, 'policy.md'), os.path.join(HERE, domain, 'policy.md'))


if __name__ == '__main__':
    main()
