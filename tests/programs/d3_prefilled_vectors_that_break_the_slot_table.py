# Rules: D3 (after derivation every vector must fit the callee's slots: In ->
# Input/NoDep; Out -> Output/OutputExisting/InOut/NoDep; InOut ->
# InOut/OutputExisting/NoDep), S11/C3 (a pre-filled vector is kept, so a wrong
# one survives to the verifier), W3/W5 (the Group's `o`, declared bare, is
# materialised to Out before the verifier runs). Spec §1 D3: "a server may use
# it to validate pre-filled vectors, S11".
#  * `Output` on an In slot: PyPTO rejects the program (CallDirectionsResolved).
#  * `Input` on an Out slot: rejected.
#  * `Input` on the Group's `o`, which its inner call writes (a stale wrapper
#    vector): rejected once phase 0 has made `o` Out.
# Reproduces, in our own words, upstream test_derive_call_directions.py cases
# test_input_with_output_rejected, test_out_with_input_rejected and
# test_stale_group_directions_rejected.
# oracle (--pipeline): the program is rejected with 3 CallDirectionsResolved errors
import pypto.language as pl


@pl.program
class BadVectors:
    @pl.function(type=pl.FunctionType.InCore)
    def mirror(
        self,
        src: pl.Tensor[[32, 8], pl.FP16],
        dst: pl.Out[pl.Tensor[[32, 8], pl.FP16]],
    ) -> pl.Tensor[[32, 8], pl.FP16]:
        t = pl.load(src, [0, 0], [32, 8])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Group)
    def grp(
        self,
        src: pl.Tensor[[32, 8], pl.FP16],
        o: pl.Tensor[[32, 8], pl.FP16],
    ) -> pl.Tensor[[32, 8], pl.FP16]:
        r = self.mirror(src, o)  # expect: Input, OutputExisting
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, a: pl.Tensor[[32, 8], pl.FP16]) -> pl.Tensor[[32, 8], pl.FP16]:
        u = pl.create_tensor([32, 8], dtype=pl.FP16)
        u = self.mirror(a, u, attrs={"arg_directions": [pl.adir.output, pl.adir.output_existing]})  # expect: Output, OutputExisting  # expect-error: PrefilledDirections
        v = pl.create_tensor([32, 8], dtype=pl.FP16)
        v = self.mirror(u, v, attrs={"arg_directions": [pl.adir.input, pl.adir.input]})  # expect: Input, Input  # expect-error: PrefilledDirections
        w = pl.create_tensor([32, 8], dtype=pl.FP16)
        w = self.grp(v, w, attrs={"arg_directions": [pl.adir.input, pl.adir.input]})  # expect: Input, Input  # expect-error: PrefilledDirections
        return w
