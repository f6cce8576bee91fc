"""The classroom's kernels: how each is started, and how many students the server takes.

Voila finds the kernel a notebook asks for (``python3``) through its kernel
spec manager, which it lets a configuration replace
(``VoilaConfiguration.kernel_spec_manager_class``): :class:`ClassroomKernelSpecs`
starts the Python kernels as :mod:`loo_tutor.apps.classroom_kernel`, the same
ipykernel with less to load.
"""

from __future__ import annotations

from typing import Any

from jupyter_client.kernelspec import KernelSpec, KernelSpecManager

KERNEL_MODULE = "loo_tutor.apps.classroom_kernel"
"""The module each Python kernel of the classroom runs."""


def classroom_argv(argv: list[str]) -> list[str]:
    """A Python kernel's command line ``argv`` made to run :data:`KERNEL_MODULE` instead.

    Only ``python -m ipykernel_launcher ...`` is changed; any other kernel is
    started as its kernel spec says.
    """
    if len(argv) >= 3 and argv[1] == "-m" and argv[2] == "ipykernel_launcher":
        return [argv[0], "-m", KERNEL_MODULE, *argv[3:]]
    return argv


class ClassroomKernelSpecs(KernelSpecManager):
    """Jupyter's kernel specs, with the Python kernel started as the classroom's."""

    def get_kernel_spec(self, kernel_name: str, *args: Any, **kwargs: Any) -> KernelSpec:
        spec: KernelSpec = super().get_kernel_spec(kernel_name, *args, **kwargs)
        spec.argv = classroom_argv(list(spec.argv))
        return spec

