#!/usr/bin/env bash
# The Unity package: assembles com.carcassonne.engine in Unity's package layout from the C#
# binding and the native libraries, and packs it as a tarball that Unity's Package Manager
# installs with "Add package from tarball...":
#
#   package.json, README.md, CHANGELOG.md, LICENSE.md
#   Runtime/Carcassonne.cs, Runtime/Carcassonne.asmdef    the binding, its own assembly
#   Runtime/Plugins/Linux/x86_64/libcarcassonne_capi.so   each native library with a .meta
#   Runtime/Plugins/Windows/x86_64/carcassonne_capi.dll   pinning it to its platform and CPU
#   Samples~/RandomGame/                                  imported on demand from the manager
#   Tests/Runtime/                                        NUnit tests for Unity's Test Runner
#
# Every file and folder Unity imports has a .meta whose GUID is derived from its path, so the
# same release always gives the same GUIDs (a project's references to them survive updates).
#
# Usage: bash release/unity-package.sh [--linux-lib DIR] [--windows-lib DIR] [--out FOLDER]
#   --linux-lib    a folder holding libcarcassonne_capi.so (default: built here in release)
#   --windows-lib  a folder holding carcassonne_capi.dll (release/c-sdk.sh --target
#                  x86_64-pc-windows-gnu makes one: its bin/); without it, Linux only
#   --out          where the folder and tarball go (default: ${CARGO_TARGET_DIR:-target}/unity)
# Prints the tarball's path on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."

linux_lib=""
windows_lib=""
out=""
while (($#)); do
    case $1 in
        --linux-lib) linux_lib=$2; shift 2 ;;
        --windows-lib) windows_lib=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "unknown argument $1 (see the top of $0)" >&2; exit 2 ;;
    esac
done
cargo_target=${CARGO_TARGET_DIR:-target}
out=${out:-$cargo_target/unity}
if [[ -z $linux_lib ]]; then
    cargo build --release --locked -p carcassonne-capi
    linux_lib=$cargo_target/release
fi
[[ -f $linux_lib/libcarcassonne_capi.so ]] || { echo "no libcarcassonne_capi.so in $linux_lib" >&2; exit 1; }
if [[ -n $windows_lib && ! -f $windows_lib/carcassonne_capi.dll ]]; then
    echo "no carcassonne_capi.dll in $windows_lib" >&2
    exit 1
fi

name=com.carcassonne.engine
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' capi/Cargo.toml | head -n 1)
staging=$out/staging
package=$staging/package
rm -rf "$staging"
mkdir -p "$package/Runtime/Plugins/Linux/x86_64" "$package/Samples~/RandomGame" "$package/Tests/Runtime"

cp bindings/csharp/Carcassonne.cs "$package/Runtime/"
cp "$linux_lib/libcarcassonne_capi.so" "$package/Runtime/Plugins/Linux/x86_64/"
if [[ -n $windows_lib ]]; then
    mkdir -p "$package/Runtime/Plugins/Windows/x86_64"
    cp "$windows_lib/carcassonne_capi.dll" "$package/Runtime/Plugins/Windows/x86_64/"
fi
cp release/unity/RandomGame.cs release/unity/RandomGameBehaviour.cs "$package/Samples~/RandomGame/"
cp release/unity/PackageTests.cs "$package/Tests/Runtime/"
cp CHANGELOG.md "$package/"
{
    cat LICENSE-MIT
    printf '\n---\n\n'
    cat LICENSE-APACHE
} > "$package/LICENSE.md"

cat > "$package/package.json" << EOF
{
  "name": "$name",
  "version": "$version",
  "displayName": "Carcassonne rules engine",
  "description": "The carcassonne rules engine for Unity: tile sets as data, every rule of the base game and its expansions, bots, analysis and board pictures, through the C ABI of a native library (Linux x86_64$([[ -n $windows_lib ]] && echo ", Windows x86_64")).",
  "unity": "2021.3",
  "license": "MIT OR Apache-2.0",
  "keywords": ["carcassonne", "board game", "rules engine", "bots"],
  "author": { "name": "The carcassonne authors" },
  "samples": [
    {
      "displayName": "Random game",
      "description": "A component that plays one game between two built-in bots and logs the scores.",
      "path": "Samples~/RandomGame"
    }
  ]
}
EOF

cat > "$package/README.md" << EOF
# Carcassonne rules engine for Unity ($version)

The \`Carcassonne\` namespace (\`Runtime/Carcassonne.cs\`) wraps the native library in
\`Runtime/Plugins/\`: \`Catalog\`, \`Game\`, \`Bot\`, \`LandscapeScore\`, value structs,
exceptions and \`IDisposable\`. Each plugin's \`.meta\` enables it for its platform and CPU
alone: Linux x86_64$([[ -n $windows_lib ]] && echo " and Windows x86_64"), in the editor and in
standalone players.

- Install: Window > Package Manager > + > Add package from tarball..., and choose
  \`$name-$version.tgz\`.
- Sample: select the package in the manager, Samples > Random game > Import, add
  \`RandomGameBehaviour\` to a GameObject and press Play.
- Tests: add \`"testables": ["$name"]\` to your project's \`Packages/manifest.json\`; the
  Test Runner then lists \`Carcassonne.Tests\`.

Every function of the C header is declared in the binding; calls are safe from any thread. The
binding's own documentation is its XML comments; the engine's is the repository's README.
EOF

cat > "$package/Runtime/Carcassonne.asmdef" << EOF
{
  "name": "Carcassonne",
  "rootNamespace": "Carcassonne",
  "references": [],
  "includePlatforms": [],
  "excludePlatforms": [],
  "allowUnsafeCode": false,
  "overrideReferences": false,
  "precompiledReferences": [],
  "autoReferenced": true,
  "defineConstraints": [],
  "versionDefines": [],
  "noEngineReferences": true
}
EOF
cat > "$package/Tests/Runtime/Carcassonne.Tests.asmdef" << EOF
{
  "name": "Carcassonne.Tests",
  "rootNamespace": "Carcassonne.Tests",
  "references": ["Carcassonne", "UnityEngine.TestRunner", "UnityEditor.TestRunner"],
  "includePlatforms": [],
  "excludePlatforms": [],
  "allowUnsafeCode": false,
  "overrideReferences": true,
  "precompiledReferences": ["nunit.framework.dll"],
  "autoReferenced": false,
  "defineConstraints": ["UNITY_INCLUDE_TESTS"],
  "versionDefines": [],
  "noEngineReferences": false
}
EOF

# The .meta files, from a small Python program: one per file and folder outside Samples~
# (Unity imports a sample's files into the project when asked, and writes their .meta then).
python3 - "$package" "$name" << 'EOF'
import hashlib
import os
import sys

package, name = sys.argv[1], sys.argv[2]
TAIL = "  userData: \n  assetBundleName: \n  assetBundleVariant: \n"


def guid(path):
    return hashlib.md5(f"{name}/{path}".encode()).hexdigest()


def plugin(platform):
    """A PluginImporter enabled for one platform's editor and standalone player, x86_64."""
    editor_os = {"Linux64": "Linux", "Win64": "Windows"}[platform]
    rows = [("Any", "", 0, "{}")]
    rows.append(("Editor", "Editor", 1, f"\n        CPU: x86_64\n        DefaultValueInitialized: true\n        OS: {editor_os}"))
    for standalone in ("Linux64", "OSXUniversal", "Win", "Win64"):
        enabled = int(standalone == platform)
        cpu = "x86_64" if enabled else "None"
        rows.append(("Standalone", standalone, enabled, f"\n        CPU: {cpu}"))
    data = ""
    for first, second, enabled, settings in rows:
        key = f"{first}: {second}" if second else f"{first}: "
        data += f"  - first:\n      {key}\n    second:\n      enabled: {enabled}\n      settings: {settings}\n"
    return (
        "PluginImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  iconMap: {}\n"
        "  executionOrder: {}\n  defineConstraints: []\n  isPreloaded: 0\n  isOverridable: 0\n"
        "  isExplicitlyReferenced: 0\n  validateReferences: 1\n  platformData:\n" + data + TAIL
    )


def importer(path, is_dir):
    if is_dir:
        return "folderAsset: yes\nDefaultImporter:\n  externalObjects: {}\n" + TAIL
    base = os.path.basename(path)
    if base == "package.json":
        return "PackageManifestImporter:\n  externalObjects: {}\n" + TAIL
    if base.endswith(".cs"):
        return (
            "MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  defaultReferences: []\n"
            "  executionOrder: 0\n  icon: {instanceID: 0}\n" + TAIL
        )
    if base.endswith(".asmdef"):
        return "AssemblyDefinitionImporter:\n  externalObjects: {}\n" + TAIL
    if base.endswith(".so"):
        return plugin("Linux64")
    if base.endswith(".dll"):
        return plugin("Win64")
    if base.endswith(".md"):
        return "TextScriptImporter:\n  externalObjects: {}\n" + TAIL
    raise SystemExit(f"no importer for {path}")


for root, dirs, files in os.walk(package):
    dirs[:] = sorted(d for d in dirs if not d.endswith("~"))
    for entry in dirs + sorted(files):
        full = os.path.join(root, entry)
        rel = os.path.relpath(full, package)
        with open(full + ".meta", "w") as meta:
            meta.write(f"fileFormatVersion: 2\nguid: {guid(rel)}\n" + importer(rel, os.path.isdir(full)))
EOF

rm -rf "${out:?}/$name"
cp -r "$package" "$out/$name"
tarball=$out/$name-$version.tgz
tar -czf "$tarball" -C "$staging" package
rm -rf "$staging"
echo "$tarball"
