"""Environments for reinforcement learning over haidi's hands (docs/learning.md):
``haidi.envs.gym`` (Gymnasium, the ``haidi[gym]`` extra) and ``haidi.envs.pettingzoo``
(PettingZoo, ``haidi[pettingzoo]``). Neither library is imported by ``import haidi``;
importing ``haidi.envs`` imports Gymnasium and registers the ids ``haidi/MCR-v0`` ...
"""

from .gym import HaidiEnv, env_id, register_envs
from .vector import HaidiVectorEnv

__all__ = ["HaidiEnv", "HaidiVectorEnv", "env_id", "register_envs"]
