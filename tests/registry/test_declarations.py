"""Chains read as OpInfo; kwarg resolvers read as KwargRule data."""
from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from pypto_lens.registry.cpp_chains import parse_chains
from pypto_lens.registry.declarations import chain_to_op, chains_to_ops, interpret_chain, literal_int
from pypto_lens.registry.model import Condition, Effect, Location
from pypto_lens.registry.resolvers import read_resolver
from pypto_lens.registry.cpp_scan import tokenize


def op_of(source: str, path: str = "src/demo.cpp"):
    chains = parse_chains(textwrap.dedent(source))
    assert len(chains) == 1
    return chain_to_op(chains[0], path)


def rule_of(lambda_text: str):
    return read_resolver(tuple(t.value for t in tokenize(textwrap.dedent(lambda_text))))


def test_all_declarations_of_one_op():
    op = op_of('''\

        REGISTER_OP("demo.acc")
            .set_op_category("DemoOp")
            .add_argument("acc", "accumulator")
            .add_argument("lhs", "left")
            .add_argument("rhs", "right")
            .set_attr<bool>("flag")
            .set_attr<std::string>("label")
            .set_arg_effect(0, ArgEffect::ReadWrite)
            .set_arg_effect(2u, demo::ArgEffect::Read)
            .set_output_reuses_input(0)
            .set_write_channel(WriteChannel::Scalar)
            .set_output_memory_inherit_input()
            .not_inplace_safe()
            .set_core_affinity(core_affinity::CoreAffinity::CUBE)
            .set_no_duplicate()
            .set_internal_only(true)
            .f_deduce_type(DeduceAcc);
        ''')
    assert op.name == "demo.acc"
    assert op.location == Location("src/demo.cpp", 1)
    assert op.op_category == "DemoOp"
    assert op.num_args == 3 and op.arg_names == ("acc", "lhs", "rhs")
    assert op.kwarg_schema == (("flag", "bool"), ("label", "std::string"))
    assert op.fixed_effects == {0: Effect.READ_WRITE, 2: Effect.READ}
    assert op.kwarg_effects == {}
    assert op.output_reuses_input == 0
    assert op.write_channel == "Scalar"
    assert op.output_memory_inherits_input and not op.inplace_safe and not op.is_view
    assert op.core_affinity == "CUBE"
    assert op.no_duplicate and op.internal_only
    assert op.writes_any_arg and op.has_declared_effect(2) and not op.has_declared_effect(1)


def test_defaults_no_argument_and_views():
    bare = op_of('REGISTER_OP("demo.bare").set_description("nothing declared");')
    assert bare.num_args is None and not bare.classified and bare.write_channel is None
    none = op_of('REGISTER_OP("demo.none").no_argument().no_arg_writes();')
    assert none.num_args == 0 and none.no_arg_writes and none.classified and not none.writes_any_arg
    view = op_of('REGISTER_OP("demo.view").set_output_memory_inherit_input().set_internal_only(false);')
    assert view.is_view and not view.internal_only


def test_unnamed_registration_has_no_op_and_duplicates_keep_the_first():
    chains = parse_chains('REGISTER_OP(kName).no_argument();\n'
                          'REGISTER_OP("d").no_argument();\nREGISTER_OP("d").no_arg_writes();')
    assert chain_to_op(chains[0]) is None
    ops = chains_to_ops(chains, "f.cpp")
    assert list(ops) == ["d"] and not ops["d"].no_arg_writes and ops["d"].location.line == 1


def test_literal_indices():
    assert literal_int(("3",)) == 3
    assert literal_int(("0x2",)) == 2
    assert literal_int(("1u",)) == 1
    assert literal_int(("size_t", "{", "4", "}")) == 4
    assert literal_int(("kIndex",)) is None
    assert literal_int(("1", "+", "1")) is None


def test_unreadable_index_is_reported_not_guessed():
    chains = parse_chains('REGISTER_OP("demo.idx").set_arg_effect(kDst, ArgEffect::Write);')
    decls = interpret_chain(chains[0], "x.cpp")
    assert decls.unknown_effect_index and decls.op.fixed_effects == {}
    assert decls.unreadable[0][0].method == "set_arg_effect"


# --- resolvers -------------------------------------------------------------


def test_atomic_style_resolver():
    rule = rule_of('''\
        [](const KwargList& kw) {
          return ReadInt(kw, "accumulate", static_cast<int>(Accum::kOff)) == static_cast<int>(Accum::kOff)
                     ? ArgEffect::Write
                     : ArgEffect::ReadWrite;
        }''')
    assert rule.exact
    assert rule.conditions == (Condition("accumulate", "eq", "Off", True),)
    assert (rule.if_all, rule.otherwise) == (Effect.WRITE, Effect.READ_WRITE)
    assert rule.evaluate({}) is Effect.WRITE
    assert rule.evaluate({"accumulate": "Off"}) is Effect.WRITE
    assert rule.evaluate({"accumulate": "Add"}) is Effect.READ_WRITE
    assert rule.evaluate({"accumulate": None}) is Effect.READ_WRITE  # unknown value: the stronger one
    assert "omitted" in rule.text


def test_enum_cast_around_the_lookup():
    rule = rule_of('''\
        [](const KwargList& kw) {
          return static_cast<Signal>(ReadInt(kw, "how", static_cast<int>(Signal::kBump))) == Signal::kPut
                     ? ArgEffect::Write : ArgEffect::ReadWrite;
        }''')
    assert rule.conditions == (Condition("how", "eq", "Put", False),)
    assert rule.evaluate({}) is Effect.READ_WRITE
    assert rule.evaluate({"how": "Put"}) is Effect.WRITE


def test_string_kwarg_and_if_else_form():
    rule = rule_of('''\
        [](const KwargList& kw) {
          if (ReadText(kw, "style", "fast") == "careful") {
            return ArgEffect::ReadWrite;
          } else {
            return ArgEffect::Read;
          }
        }''')
    assert rule.conditions == (Condition("style", "eq", "careful", False),)
    assert (rule.if_all, rule.otherwise) == (Effect.READ_WRITE, Effect.READ)


def test_two_conditions_through_named_booleans():
    rule = rule_of('''\
        [](const KwargList& kw) {
          const bool to_mat = ReadSpace(kw, "dest", Space::Vec) == Space::Mat;
          bool per_elem = ReadInt(kw, "gran", static_cast<int>(Gran::kLine)) == static_cast<int>(Gran::kItem);
          return (to_mat && per_elem) ? ArgEffect::Write : ArgEffect::Read;
        }''')
    assert rule.conditions == (Condition("dest", "eq", "Mat", False), Condition("gran", "eq", "Item", False))
    assert rule.evaluate({"dest": "Mat", "gran": "Item"}) is Effect.WRITE
    assert rule.evaluate({"dest": "Mat"}) is Effect.READ


def test_disjunction_and_early_returns_become_a_conjunction():
    rule = rule_of('''\
        [](const KwargList& kw) {
          if (ReadInt(kw, "a", 0) != 0) return ArgEffect::ReadWrite;
          if (!(ReadInt(kw, "b", 0) == 0)) return ArgEffect::ReadWrite;
          return ArgEffect::Write;
        }''')
    assert set(rule.conditions) == {Condition("a", "eq", "0", True), Condition("b", "eq", "0", True)}
    assert (rule.if_all, rule.otherwise) == (Effect.WRITE, Effect.READ_WRITE)


def test_constant_resolver_and_bool_kwarg():
    always = rule_of("[](const KwargList&) { return ArgEffect::Write; }")
    assert always.exact and always.conditions == () and always.evaluate({}) is Effect.WRITE
    flag = rule_of('[](const KwargList& kw) { return ReadBool(kw, "inplace", false) ? ArgEffect::ReadWrite : ArgEffect::Read; }')
    assert flag.conditions == (Condition("inplace", "eq", "True", False),)


def test_unreadable_resolvers_are_conservative_and_flagged():
    loop = rule_of('''\
        [](const KwargList& kw) {
          for (const auto& [key, value] : kw) { if (key == "x") return ArgEffect::ReadWrite; }
          return ReadInt(kw, "y", 0) > 1 ? ArgEffect::Write : ArgEffect::Read;
        }''')
    assert not loop.exact
    assert loop.kwargs == ("y",)
    assert loop.if_all is Effect.READ_WRITE and loop.otherwise is Effect.READ_WRITE
    assert all(loop.evaluate(k) is Effect.READ_WRITE for k in ({}, {"y": "5"}, {"y": None}))
    named = op_of('REGISTER_OP("demo.named").set_arg_effect(1, PickEffect).set_write_channel(WriteChannel::Dma);')
    assert not named.kwarg_effects[1].exact and named.writes_any_arg
    three = rule_of('''\
        [](const KwargList& kw) {
          const int m = ReadInt(kw, "m", 0);
          return m == 0 ? ArgEffect::Read : m == 1 ? ArgEffect::Write : ArgEffect::ReadWrite;
        }''')
    assert not three.exact  # three outcomes cannot be one all-of rule


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(
    ["[", "]", "(", ")", "{", "}", "return", "if", "else", ";", "?", ":", "==", "!=", "&&", "||", "!",
     "ArgEffect", "::", "Write", "Read", "ReadWrite", "Get", "Kwarg", "GetIntKwarg", ",", '"k"', "kw",
     "0", "static_cast", "<", ">", "int", "=", "const", "bool", "x"]), max_size=40))
def test_resolver_reader_never_raises(tokens):
    rule = read_resolver(["[", "]", "(", ")", "{"] + tokens + ["}"])
    assert rule.if_all in Effect and rule.otherwise in Effect


def test_copies_of_a_chain_share_the_reading_but_keep_their_positions():
    chain_text = 'REGISTER_OP("same").set_arg_effect(kSlot, ArgEffect::Write);'
    chains = parse_chains(chain_text + "\n\n   " + chain_text)
    first, second = (interpret_chain(c, "f.cpp") for c in chains)
    assert first.op.location.line == 0 and second.op.location.line == 2
    assert first.unreadable[0][0].range.line == 0 and first.unreadable[0][0].range.col == 19
    assert second.unreadable[0][0].range.line == 2 and second.unreadable[0][0].range.col == 22
