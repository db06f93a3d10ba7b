"""`import dirac` works after the README's commands as written, in a fresh shell; and
`cmake --install` puts the module where the interpreter it was built for looks."""

import os
import subprocess
import sys

from conftest import ROOT, build_dir


def readme_python_block():
    """The README's indented block that puts the module on the path and imports it."""
    blocks, block = [], []
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.startswith("    "):
            block.append(line[4:])
        elif block:
            blocks.append(block)
            block = []
    return next(b for b in blocks if any(line.startswith("export PYTHONPATH") for line in b))


def fresh_shell(script, tmp_path, **env):
    """Runs `script` in bash from the repository root, with nothing of this process's
    environment (no PYTHONPATH) but a plain PATH."""
    return subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), **env})


def test_the_readme_lines_make_import_dirac_work_in_a_fresh_shell(tmp_path):
    block = readme_python_block()
    assert block[0] == "export PYTHONPATH=$PWD/build/python"
    script = "\n".join(block)
    if build_dir().resolve() != (ROOT / "build").resolve():  # tested from another build tree
        script = script.replace("$PWD/build/", str(build_dir()) + "/", 1)
    done = fresh_shell(script, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "<dirac.Result 'Heisenberg particle': 2001 samples x 10 columns" in done.stdout
    # Without that line the module is not found: the line is what does it.
    without = fresh_shell("\n".join(block[1:]), tmp_path)
    assert without.returncode != 0 and "No module named 'dirac'" in without.stderr


def test_cmake_install_puts_the_module_on_the_interpreters_path(tmp_path):
    prefix = tmp_path / "usr" / "local"
    subprocess.run(["cmake", "--install", str(build_dir()), "--component", "python", "--prefix",
                    str(prefix)], check=True, capture_output=True)
    installed = list(prefix.rglob("dirac*.so"))
    assert len(installed) == 1 and installed[0].with_name("dirac.pyi").is_file()
    folder = installed[0].parent
    # With the default prefix /usr/local, that folder is on the interpreter's own path.
    assert "/" + str(folder.relative_to(tmp_path)) in sys.path
    done = subprocess.run([sys.executable, "-c", "import dirac; print(dirac.__file__)"],
                          capture_output=True, text=True, cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(folder)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(installed[0])
