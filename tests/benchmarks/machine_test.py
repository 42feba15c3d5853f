"""The CPU kind a benchmark records: name, family and model, and its int8 dot-product instructions."""

from benchmarks.machine import cpu_kind, cpu_kind_of, int8_instructions

ZEN3 = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 1
model name\t: AMD EPYC
flags\t\t: fpu sse2 avx avx2 fma sha_ni vaes

processor\t: 1
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC
flags\t\t: fpu sse2 avx avx2 avx512f avx512bw avx512_vnni
"""

ARM = """processor\t: 0
BogoMIPS\t: 243.75
Features\t: fp asimd evtstrm aes asimddp
CPU implementer\t: 0x41
CPU part\t: 0xd0c
"""


def test_the_kind_names_family_model_and_the_best_int8_instructions_of_the_first_processor():
    assert cpu_kind_of(ZEN3) == "AMD EPYC, family 25 model 1, int8: AVX2 without VNNI"
    second = ZEN3.split("\n\n")[1]
    assert cpu_kind_of(second) == "AMD EPYC, family 25 model 17, int8: AVX-512 VNNI"


def test_arm_names_its_implementer_and_part_and_dot_product():
    assert cpu_kind_of(ARM).endswith(", implementer 0x41 part 0xd0c, int8: Arm dot product")


def test_the_best_instructions_win_and_none_is_said():
    assert int8_instructions({"avx2", "avx512bw", "avx512_vnni", "amx_int8"}) == "AMX"
    assert int8_instructions({"avx2", "avx_vnni"}) == "AVX-VNNI"
    assert int8_instructions({"avx2", "avx512bw"}) == "AVX-512 without VNNI"
    assert int8_instructions({"sse2"}) == "no AVX2, VNNI or Arm dot product"


def test_this_machine_has_a_kind():
    kind = cpu_kind()
    assert kind and ("int8: " in kind or "not read" in kind)
