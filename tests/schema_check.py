"""schema_check.py SCHEMA_DIR FILE...: validates each FILE, a JSON document of prognoz,
against the schema of its kind in SCHEMA_DIR (share/schema: "format": {"name":
"prognoz-report"} is report.json, and so on), with python3's jsonschema module.
Prints one line per invalid document and exits 1 if any; exits 77 when the jsonschema
module is missing."""
import json
import os
import sys

try:
    import jsonschema
    import referencing
except ImportError:
    print("SKIP: python3's jsonschema module is not installed (python3-jsonschema)")
    sys.exit(77)

KINDS = {"prognoz-report": "report.json", "prognoz-prediction": "prediction.json",
         "prognoz-scale": "scale.json"}


def registry(schema_dir):
    """Every schema by its $id, so that prediction.json finds report.json's definitions."""
    resources = []
    for name in KINDS.values():
        with open(os.path.join(schema_dir, name)) as f:
            schema = json.load(f)
        resources.append((schema["$id"], referencing.Resource.from_contents(schema)))
    return referencing.Registry().with_resources(resources)


def main():
    schema_dir, files = sys.argv[1], sys.argv[2:]
    reg = registry(schema_dir)
    bad = 0
    for path in files:
        try:
            with open(path) as f:
                doc = json.load(f)
        except ValueError as e:
            print("%s: not JSON: %s" % (path, e))
            bad += 1
            continue
        kind = doc.get("format", {}).get("name") if isinstance(doc, dict) else None
        if kind not in KINDS:
            print("%s: no \"format\" naming one of %s" % (path, ", ".join(KINDS)))
            bad += 1
            continue
        schema = reg.contents("https://prognoz.invalid/schema/" + KINDS[kind])
        validator = jsonschema.Draft202012Validator(schema, registry=reg)
        for error in sorted(validator.iter_errors(doc), key=lambda e: list(e.path))[:5]:
            where = "/".join(str(p) for p in error.path)
            print("%s: %s: %s" % (path, where or "(top)", error.message[:300]))
            bad += 1
    sys.exit(1 if bad else 0)


main()
