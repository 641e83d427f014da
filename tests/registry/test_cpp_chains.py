"""The island parser: which statements are found, how they are split, exact ranges."""
from __future__ import annotations

import textwrap

from pypto_lens.registry.cpp_chains import Range, parse_chains, parse_statement, string_value, unparsed
from pypto_lens.registry.cpp_scan import find_statements, tokenize


def chains_of(source: str):
    return parse_chains(textwrap.dedent(source))


def test_multi_line_chain_with_every_argument_form():
    chains = chains_of('''\
        REGISTER_OP("demo.copy")
            .set_op_category("DemoOp")   // a trailing comment
            /* a block comment between calls */ .add_argument("dst", "where it goes, (really)")
            .add_argument("src", "where it comes from")
            .set_attr<std::vector<std::pair<int, int>>>("pairs")
            .set_input_memory(1, {Space::Vec, Space::Acc})
            .set_arg_effect(0, [](const Map& kw) {
              // '}' and ")" inside comments and strings do not count
              if (Lookup(kw, "mode", "plain") == "sum") { return ArgEffect::ReadWrite; }
              return ArgEffect::Write;
            })
            .f_deduce_type(DeduceCopy);
        ''')
    assert len(chains) == 1
    chain = chains[0]
    assert chain.op_name == "demo.copy"
    assert chain.complete
    assert chain.head_range == Range(0, 0, 0, 24)
    assert chain.range == Range(0, 0, 11, 31)
    assert [c.method for c in chain.calls] == [
        "set_op_category", "add_argument", "add_argument", "set_attr", "set_input_memory",
        "set_arg_effect", "f_deduce_type"]
    category, dst, _, attr, memory, effect, deduce = chain.calls
    assert category.arg_texts == ('"DemoOp"',)
    assert category.range == Range(1, 4, 1, 30)
    assert category.name_range == Range(1, 5, 1, 20)
    assert dst.arg_texts == ('"dst"', '"where it goes, (really)"')
    assert dst.range == Range(2, 40, 2, 87)
    assert attr.template_args == "std::vector<std::pair<int, int>>"
    assert attr.arg_texts == ('"pairs"',)
    assert memory.arg_texts == ("1", "{Space::Vec, Space::Acc}")
    assert len(effect.args) == 2
    assert effect.args[1].text.startswith("[](const Map& kw) {")
    assert effect.args[1].text.endswith("}")
    assert "//" not in " ".join(effect.args[1].tokens)  # tokens carry no comments
    assert effect.range == Range(6, 4, 10, 6)
    assert deduce.arg_texts == ("DeduceCopy",)


def test_only_code_registrations_are_found():
    chains = chains_of('''\
        // REGISTER_OP("in.a.line.comment").no_arg_writes();
        /* REGISTER_OP("in.a.block.comment")
           .no_arg_writes(); */
        #define REGISTER_OP(Name) static auto& entry = Registry::Get().Add(Name)
        #define WRAPPED \\
          REGISTER_OP("in.a.continued.macro")
        const char* text = "REGISTER_OP(\\"in.a.string\\")";
        const char* raw = R"x(REGISTER_OP("in.a.raw.string"); )" )x";
        char quote = '"'; char paren = ')';
        REGISTER_OP_CONVERSION("not.a", "registration");
        MY_REGISTER_OP("not.either");
        REGISTER_OP("real.one").no_arg_writes();
        ''')
    assert [c.op_name for c in chains] == ["real.one"]
    assert chains[0].head_range == Range(11, 0, 11, 23)


def test_name_forms():
    chains = chains_of('''\
        REGISTER_OP("split." "name").no_argument();
        REGISTER_OP(kComputedName).no_argument();
        REGISTER_OP ( "spaced" ) . no_argument ( ) ;
        ''')
    assert [c.op_name for c in chains] == ["split.name", None, "spaced"]
    assert chains[1].name_text == "kComputedName"
    assert chains[2].calls[0].range == Range(2, 25, 2, 42)


def test_chain_sharing_a_line_with_other_code_and_unicode_columns():
    # Columns count code points: "é" and "😀" are one column each.
    chains = chains_of('''\
        int x = 1; REGISTER_OP("a").set_description("é😀").no_arg_writes(); int y = 2;
        ''')
    chain = chains[0]
    assert chain.head_range == Range(0, 11, 0, 27)
    assert chain.calls[0].range == Range(0, 27, 0, 49)
    assert chain.calls[1].range == Range(0, 49, 0, 65)


def test_missing_semicolon_ends_the_chain_before_unrelated_code():
    chains = chains_of('''\
        REGISTER_OP("no.semicolon")
            .set_description("x")
            .no_arg_writes()

        static int counter = 0;
        REGISTER_OP("next").no_argument();
        ''')
    assert [c.op_name for c in chains] == ["no.semicolon", "next"]
    first = chains[0]
    assert not first.complete
    assert [c.method for c in first.calls] == ["set_description", "no_arg_writes"]
    assert first.range == Range(0, 0, 2, 20)
    assert chains[1].complete


def test_half_typed_chain_keeps_the_calls_before_the_gap():
    chains = chains_of('''\
        REGISTER_OP("typing")
            .set_description("x")
            .set_write_channel(WriteChannel::Dma)
            .set_arg_effect(2, [](const Map& kw) { return
        ''')
    chain = chains[0]
    assert not chain.complete
    assert [c.method for c in chain.calls] == ["set_description", "set_write_channel"]


def test_half_typed_chain_does_not_swallow_the_next_registration():
    chains = chains_of('''\
        REGISTER_OP("open").set_description("x").set_arg_effect(0,
        REGISTER_OP("closed").no_argument();
        ''')
    assert [c.op_name for c in chains] == ["open", "closed"]
    assert [c.method for c in chains[0].calls] == ["set_description"]
    assert chains[1].complete


def test_unterminated_comment_and_string_end_quietly():
    assert chains_of('REGISTER_OP("a").no_argument(); /* never closed REGISTER_OP("b")')[0].op_name == "a"
    chains = chains_of('REGISTER_OP("a").set_description("never closed\nREGISTER_OP("b").no_argument();\n')
    assert [c.op_name for c in chains] == ["a", "b"]


def test_stray_closing_brace_ends_the_statement():
    chains = chains_of('''\
        namespace demo {
        REGISTER_OP("inside").no_argument()
        }  // namespace demo
        ''')
    assert chains[0].op_name == "inside"
    assert not chains[0].complete
    assert [c.method for c in chains[0].calls] == ["no_argument"]


def test_find_statements_and_tokens():
    text = 'x; REGISTER_OP("a").f(1, {2, 3});\nREGISTER_OP("b")'
    statements = list(find_statements(text))
    assert [(s.start, s.end, s.terminated) for s in statements] == [(3, 33, True), (34, 50, False)]
    tokens = tokenize('REGISTER_OP("a") // c\n  .f<A<B>>(x >> 1)')
    assert [t.type for t in tokens][:4] == ["REGISTER_OP", "LPAR", "STRING", "RPAR"]
    assert [t.value for t in tokens if t.type == "MORE"] == [">", ">", ">", ">"]
    dot = next(t for t in tokens if t.type == "DOT")
    assert (dot.line, dot.col) == (1, 2)


def test_string_values():
    assert string_value('"a\\"b"') == 'a"b'
    assert string_value('u8"x"') == "x"
    assert string_value('R"d(raw "text")d"') == 'raw "text"'


def test_statement_cache_returns_the_same_object():
    text = 'REGISTER_OP("cached").no_argument();'
    assert parse_statement(text, True) is parse_statement(text, True)


def test_parser_never_raises():
    samples = [
        "", "REGISTER_OP", "REGISTER_OP(", "REGISTER_OP()", "REGISTER_OP(\"a\"", "REGISTER_OP(\"a\").",
        "REGISTER_OP(\"a\").f(", "REGISTER_OP(\"a\").f<", "REGISTER_OP(\"a\").f<int>", ")))REGISTER_OP(((",
        "REGISTER_OP(\"a\").f(]).g()", "REGISTER_OP(\"a\").f({)}", "R\"x(", "'", "\"", "/*", "#",
        "REGISTER_OP(\"a\").f(,);", "REGISTER_OP(\"a\") .. f();", "REGISTER_OP(\"a\").f(1,,2);",
        "\x00REGISTER_OP(\"\x00\").f(\"\\\");", "REGISTER_OP(\"a\").1();", "REGISTER_OP(R\"(x)\").g();",
    ]
    for sample in samples:
        parse_chains(sample)
    base = textwrap.dedent('''\
        REGISTER_OP("t").set_arg_effect(1, [](const Map& kw) { return Get(kw, "k", "v") == "w"
            ? ArgEffect::Write : ArgEffect::Read; }).set_write_channel(WriteChannel::Dma);
        ''')
    for cut in range(len(base) + 1):  # every prefix, as while typing
        parse_chains(base[:cut])
        parse_chains(base[cut:])


def test_each_thread_gets_its_own_parser():
    import threading

    from pypto_lens.registry import cpp_chains

    parsers, results = [], []

    def work(n: int) -> None:
        parsers.append(cpp_chains._parser())
        for i in range(30):
            # distinct texts, so the statement cache does not hide the parser
            chain = parse_statement(f'REGISTER_OP("t{n}.{i}").set_arg_effect({i}, ArgEffect::Write);')
            results.append(chain is not None and chain.op_name == f"t{n}.{i}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(results) and len(results) == 120
    assert len({id(p) for p in parsers}) == 4


FRAGMENTS = ['REGISTER_OP(', '"op"', ")", "(", ".set_arg_effect", ".no_arg_writes()", ".set_write_channel",
             "WriteChannel::Dma", "[](const K& kw)", "{", "}", "return", "ArgEffect::Write", ";", ",",
             "//", "/*", "*/", "\n", "#define X", 'R"(', ')"', "'", '"', "0", "<", ">", "?", ":", "é"]


def test_random_fragments_never_raise():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from pypto_lens.registry.validate import validate_source

    @settings(max_examples=400, deadline=None)
    @given(st.lists(st.sampled_from(FRAGMENTS), max_size=60), st.text(max_size=40))
    def check(parts, noise):
        text = " ".join(parts) + noise
        parse_chains(text)
        validate_source(text)

    check()


def test_preprocessor_lines_inside_a_chain_are_skipped():
    chains = chains_of('''\
        REGISTER_OP("conditional")
        #if defined(WITH_EXTRA)
            .set_description("with extra")
        #else
            .set_description("without")
        #endif
            .no_argument();
        ''')
    chain = chains[0]
    assert chain.complete
    assert [c.method for c in chain.calls] == ["set_description", "set_description", "no_argument"]


def test_chains_read_only_in_part_say_where_and_what_is_lost():
    source = textwrap.dedent('''\
        REGISTER_OP("ok.store").add_argument("dst", "d").set_arg_effect(0, ArgEffect::Write);
        REGISTER_OP("bad.dots").add_argument("x", "x") .. set_arg_effect(0, ArgEffect::Write);
        REGISTER_OP("bad.open").set_arg_effect(0, ArgEffect::Write).add_argument("x",
        REGISTER_OP(not_a_literal).set_arg_effect(0, ArgEffect::Write);
        REGISTER_OP("bad.semi").add_argument("x", "x")
        int after = 1;
        REGISTER_OP;
        ''')
    found = [(p.range.line, p.range.col, p.op, p.message) for p in unparsed(source)]
    assert found == [
        (1, 48, "bad.dots", "the chain of `bad.dots` does not parse from `.` on: only the calls before it are read "
                            "(add_argument)"),
        (2, 76, "bad.open", "the chain of `bad.open` ends inside a call: only the calls before it are read "
                            "(set_arg_effect)"),
        (3, 0, None, "the op's name `not_a_literal` is not a string literal: this chain is not read"),
        (4, 46, "bad.semi", "the chain of `bad.semi` has no `;` here: it is read as far as this"),
        (6, 0, None, "this REGISTER_OP statement does not parse: none of it is read"),
    ]
    # the chains around them are read as before: the first whole, the broken ones as far as they parse
    chains = {c.op_name: c for c in parse_chains(source)}
    assert chains["ok.store"].complete and chains["ok.store"].stopped is None
    assert [c.method for c in chains["bad.dots"].calls] == ["add_argument"]
    assert chains["bad.dots"].stopped[1] == "."

