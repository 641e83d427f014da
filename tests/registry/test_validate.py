"""Rules V1-V3 (spec §14.2): exact codes and ranges on chains written for these tests."""
from __future__ import annotations

import textwrap

from pypto_lens.registry.cpp_chains import Range
from pypto_lens.registry.validate import validate_source


def problems_of(source: str):
    return [(p.code, p.rule, p.range, p.op) for p in validate_source(textwrap.dedent(source))]


CLEAN = '''\
    // Every rule satisfied, in several spellings.
    REGISTER_OP("ok.store")
        .add_argument("src", "s").add_argument("dst", "d")
        .set_arg_effect(1, [](const KwargList& kw) {
          return ReadInt(kw, "accumulate", 0) == 0 ? ArgEffect::Write : ArgEffect::ReadWrite;
        })
        .set_write_channel(WriteChannel::Dma)
        .set_output_reuses_input(1);
    REGISTER_OP("ok.meta").set_output_reuses_input(0).no_arg_writes();
    REGISTER_OP("ok.read_slot").set_arg_effect(0, ArgEffect::Read).set_output_reuses_input(0);
    REGISTER_OP("ok.poll").no_arg_writes().set_core_affinity(core_affinity::CoreAffinity::VECTOR);
    REGISTER_OP("ok.maybe").set_arg_effect(0, [](const KwargList& kw) {
        return ReadText(kw, "m", "a") == "b" ? ArgEffect::ReadWrite : ArgEffect::Read;
    }).set_write_channel(WriteChannel::Scalar);
    '''


def test_clean_chains_have_no_problems():
    assert problems_of(CLEAN) == []


def test_v1_set_arg_effect_after_no_arg_writes():
    assert problems_of('''\
        REGISTER_OP("bad.order")
            .no_arg_writes()
            .set_arg_effect(0, ArgEffect::Write);
        ''') == [("ArgEffectContradiction", "V1", Range(2, 4, 2, 40), "bad.order")]


def test_v1_no_arg_writes_after_set_arg_effect():
    problems = validate_source(textwrap.dedent('''\
        REGISTER_OP("bad.order2").set_arg_effect(1, ArgEffect::ReadWrite)
            .no_arg_writes();
        '''))
    assert [(p.code, p.rule, p.range) for p in problems] == [
        ("ArgEffectContradiction", "V1", Range(1, 4, 1, 20))]
    assert "drop .no_arg_writes()" in problems[0].message
    assert "line 1" in problems[0].message


def test_v1_contradiction_with_a_resolver_and_each_mistake_once():
    assert problems_of('''\
        REGISTER_OP("bad.resolver").no_arg_writes()
            .set_arg_effect(0, [](const KwargList& kw) { return ArgEffect::Write; })
            .set_arg_effect(1, ArgEffect::Write);
        ''') == [("ArgEffectContradiction", "V1", Range(1, 4, 1, 76), "bad.resolver"),
                 ("ArgEffectContradiction", "V1", Range(2, 4, 2, 40), "bad.resolver")]


def test_v1_null_resolver():
    assert problems_of('''\
        REGISTER_OP("bad.null").set_arg_effect(0, nullptr).set_arg_effect(1, ArgEffect::Write);
        ''') == [("NullResolver", "V1", Range(0, 23, 0, 50), "bad.null")]
    assert problems_of('REGISTER_OP("bad.null2").set_arg_effect(0, OpArgEffectSpec::Resolver{})'
                       '.set_arg_effect(1, ArgEffect::Write);')[0][:3] == (
        "NullResolver", "V1", Range(0, 24, 0, 71))


def test_v1_second_write_channel_and_second_core_affinity():
    assert problems_of('''\
        REGISTER_OP("bad.twice")
            .set_arg_effect(0, ArgEffect::Write)
            .set_write_channel(WriteChannel::Dma)
            .set_core_affinity(core_affinity::CoreAffinity::CUBE)
            .set_write_channel(WriteChannel::Scalar)
            .set_core_affinity(core_affinity::CoreAffinity::VECTOR);
        ''') == [("DuplicateWriteChannel", "V1", Range(4, 4, 4, 44), "bad.twice"),
                 ("DuplicateCoreAffinity", "V1", Range(5, 4, 5, 59), "bad.twice")]


def test_v1_duplicate_op_in_one_file():
    problems = validate_source(textwrap.dedent('''\
        REGISTER_OP("dup.op").no_argument();
        REGISTER_OP("other").no_argument();
          REGISTER_OP("dup.op").no_arg_writes();
        '''))
    assert [(p.code, p.rule, p.range, p.op) for p in problems] == [
        ("DuplicateOp", "V1", Range(2, 2, 2, 23), "dup.op")]
    assert "line 1" in problems[0].message


def test_v2_write_channel_without_a_write():
    assert problems_of('''\
        int unrelated = 0;
        REGISTER_OP("bad.channel")
            .set_arg_effect(0, ArgEffect::Read)
            .set_write_channel(WriteChannel::Dma);
        ''') == [("WriteChannelWithoutWrite", "V2", Range(1, 0, 1, 26), "bad.channel")]
    # the channel alone classifies the op but writes nothing; no_arg_writes + channel is V2 too
    assert problems_of('REGISTER_OP("c1").set_write_channel(WriteChannel::Scalar);')[0][:3] == (
        "WriteChannelWithoutWrite", "V2", Range(0, 0, 0, 17))
    assert problems_of('REGISTER_OP("c2").no_arg_writes().set_write_channel(WriteChannel::Dma);')[0][0] == (
        "WriteChannelWithoutWrite")


def test_v3_reuse_without_an_effect_on_that_argument():
    problems = validate_source(textwrap.dedent('''\
        REGISTER_OP("bad.reuse")
            .set_arg_effect(1, ArgEffect::Write)
            .set_output_reuses_input(0);
        '''))
    assert [(p.code, p.rule, p.range, p.op) for p in problems] == [
        ("ReuseWithoutArgEffect", "V3", Range(0, 0, 0, 24), "bad.reuse")]
    assert ".set_arg_effect(0, ArgEffect::Write)" in problems[0].message
    assert problems_of('REGISTER_OP("r2").set_output_reuses_input(2);') == [
        ("ReuseWithoutArgEffect", "V3", Range(0, 0, 0, 17), "r2")]


def test_v2_and_v3_together_are_both_reported():
    assert [p[0] for p in problems_of(
        'REGISTER_OP("both").set_write_channel(WriteChannel::Dma).set_output_reuses_input(0);')] == [
        "ReuseWithoutArgEffect", "WriteChannelWithoutWrite"]


def test_whole_op_rules_wait_for_a_finished_chain():
    # still being typed: no `;` yet, so V2/V3 would be premature; V1 is reported
    assert problems_of('''\
        REGISTER_OP("typing").set_write_channel(WriteChannel::Dma).no_arg_writes()
            .set_arg_effect(0, ArgEffect::Write)
        ''') == [("ArgEffectContradiction", "V1", Range(1, 4, 1, 40), "typing")]


def test_unreadable_indices_do_not_produce_guesses():
    assert problems_of('REGISTER_OP("u1").set_arg_effect(kSlot, ArgEffect::Write)'
                       '.set_write_channel(WriteChannel::Dma).set_output_reuses_input(0);') == []
    assert problems_of('REGISTER_OP("u2").set_arg_effect(0, ArgEffect::Write)'
                       '.set_output_reuses_input(kSlot);') == []


def test_problems_move_with_the_text_and_nothing_outside_chains_is_reported():
    body = 'REGISTER_OP("m").set_output_reuses_input(0);'
    assert problems_of(body)[0][2] == Range(0, 0, 0, 16)
    moved = "/* REGISTER_OP(\"x\").set_output_reuses_input(0); */\n\n    " + body
    assert problems_of(moved)[0][2] == Range(2, 4, 2, 20)
    assert problems_of("int main() { return REGISTER_OP_COUNT; } // REGISTER_OP(\n") == []
