"""A model written with bodies (the Whipple bicycle) through the module, with --set-like values."""

import dirac
from conftest import SCENARIOS


def test_the_bicycle_runs_with_set_values():
    model = dirac.load(str(SCENARIOS / "whipple_bicycle.yaml")).derive()
    result = model.run(t_end=0.5, set={"v": 4.0})
    # The rear wheel's rate follows v (-v/rR); the forward speed is solved from the rolling forms.
    assert abs(result["vthetaR"][0] + 4.0 / 0.3) < 1e-12
    assert abs(result["vx"][0] - 4.0) < 1e-9
    assert abs(result["position_residual_front_contact"]).max() < 1e-10
    default = model.run(t_end=0.5)
    assert abs(default["vx"][0] - 5.0) < 1e-9
