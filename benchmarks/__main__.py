"""Run the benchmarks: ``python -m benchmarks`` (all) or ``python -m benchmarks scoring``.

Options after the names go to the benchmarks: ``python -m benchmarks panel --seconds 10``.
"""

import importlib
import pkgutil
import sys

import benchmarks


def main(names: list[str]) -> None:
    found = sorted(
        m.name.removeprefix("bench_")
        for m in pkgutil.iter_modules(benchmarks.__path__)
        if m.name.startswith("bench_")
    )
    for name in names or found:
        if name not in found:
            sys.exit(f"no benchmark {name!r}; there are: {', '.join(found)}")
        print(f"== {name} ==", flush=True)
        importlib.import_module(f"benchmarks.bench_{name}").main()


if __name__ == "__main__":
    args = sys.argv[1:]
    split = next((i for i, arg in enumerate(args) if arg.startswith("-")), len(args))
    sys.argv = [sys.argv[0], *args[split:]]
    main(args[:split])
