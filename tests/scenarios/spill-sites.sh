#!/bin/bash
# Where the spills are (issue 33): explain lists each spill at its line and loop depth, the gate's
# --max-loop-spills fails spills inside loops and refuses a kernel whose assembly it did not read, and
# a baseline fails a change that moves spills into a loop. Sources: fixtures/spills (hand-written
# kernels that spill at known depths; make.sh has the compiles the fixtures hold).
. "$(dirname "$0")/lib.sh"; need hipcc; scratch
cp "$SRC"/fixtures/spills/spill_depths.hip "$SRC"/fixtures/spills/moved.hip .

# spill-01: explain's JSON: the inner loop's reloads at depth 2, at the inner loop's source line, first.
rs e explain spill_depths.hip --offload-arch gfx90a --format json
inner=$(grep -n 'acc += b\[i\]' spill_depths.hip | cut -d: -f1)
got=$(jget e.out "[(s['loop_depth'], s['line'], s['kind']) for s in d['kernels'][0]['spills'] if s['kind'] in ('spill','reload')][0]" 2>/dev/null)
if [ "$(rc e)" = 0 ] && [ "$got" = "(2, $inner, 'reload')" ]; then pass spill-01 "the first spill site is the inner loop's reload at line $inner, depth 2"
else fail spill-01 "explain --format json: first spill site $got, expected (2, $inner, 'reload'); $(seen e)"; fi

# spill-02: the summary adds up to the compiler's own count (the .s's .vgpr_spill_count).
got=$(jget e.out "(lambda s: (s['store_dwords'], s['compiler_vgpr_spills'], s['in_loops'] > 0, s['max_loop_depth']))(d['kernels'][0]['spill_summary'])" 2>/dev/null)
case "$got" in "("*", "*", True, 2)") a=${got#(}; a=${a%%,*}; b=$(echo "$got" | cut -d, -f2 | tr -d ' ')
  if [ "$a" = "$b" ]; then pass spill-02 "spill stores write $a dwords, the compiler's count; spills in loops, max depth 2"
  else fail spill-02 "spill stores write $a dwords, compiler counted $b"; fi ;;
  *) fail spill-02 "spill_summary: $got" ;; esac

# spill-03: explain's text names the depth and says how many are in loops.
rs t explain spill_depths.hip --offload-arch gfx90a
if grep -q '^spills: [0-9]* accesses, [0-9]* in loops (max depth 2)' t.out; then pass spill-03 "$(grep '^spills:' t.out | cut -c1-90)"
else fail spill-03 "no 'spills: N accesses, M in loops (max depth 2)' line: $(seen t)"; fi

# spill-04: --max-loop-spills 0 fails the kernel (exit 1), naming the count; analyze JSON has loop_spills.
rs g gate spill_depths.hip --offload-arch gfx90a --max-loop-spills 0
if [ "$(rc g)" = 1 ] && grep -q 'max-loop-spills: spills inside loops [0-9]* accesses > 0' g.out; then pass spill-04 "$(grep -o 'max-loop-spills: [^(]*' g.out | head -1)"
else fail spill-04 "gate --max-loop-spills 0: rc $(rc g), $(head -2 g.out | tr '\n' '|') $(seen g)"; fi

# spill-05: spills outside loops only pass --max-loop-spills 0 but fail --max-spills 0.
rs o gate moved.hip --offload-arch gfx90a --max-loop-spills 0
rs o2 gate moved.hip --offload-arch gfx90a --max-spills 0
if [ "$(rc o)" = 0 ] && [ "$(rc o2)" = 1 ]; then pass spill-05 "spills outside loops: --max-loop-spills 0 passes, --max-spills 0 fails"
else fail spill-05 "moved.hip (spills outside its loop): --max-loop-spills 0 rc $(rc o), --max-spills 0 rc $(rc o2); $(seen o)"; fi

# spill-06: a baseline fails the change that moves the spills into the loop (RS205).
rs b baseline moved.hip --offload-arch gfx90a -o base.json
rs m gate moved.hip --offload-arch gfx90a --baseline base.json -- -DIN_LOOP
if [ "$(rc b)" = 0 ] && [ "$(rc m)" = 1 ] && grep -q 'loop-spill-regression: spills inside loops 0 -> [0-9]* accesses' m.out; then
  pass spill-06 "$(grep -o 'loop-spill-regression: [^ ]* [^ ]* [^ ]* [^ ]* [^ ]* [^ ]*' m.out | head -1)"
else fail spill-06 "baseline then gate -DIN_LOOP: rc $(rc b)/$(rc m): $(grep -v '^\s*$' m.out | head -3 | tr '\n' '|') $(seen m)"; fi

# spill-07: ... even when the spill count did not grow. The baseline is edited here by hand to give
# the outside-the-loop version the in-loop version's spill count: only the loops' share differs.
rs n analyze moved.hip --offload-arch gfx90a --format json -- -DIN_LOOP
now=$(jget n.out "d['kernels'][0]['vgpr_spills'] + d['kernels'][0]['sgpr_spills']")
python3 -c "import json,sys; d=json.load(open('base.json')); d['kernels'][0]['spills']=int(sys.argv[1]); json.dump(d, open('same.json','w'))" "$now"
rs m2 gate moved.hip --offload-arch gfx90a --baseline same.json -- -DIN_LOOP
if [ "$(rc m2)" = 1 ] && grep -q 'loop-spill-regression' m2.out && ! grep -q 'spill-regression: spilled' m2.out; then pass spill-07 "same spill count ($now), moved into the loop: loop-spill-regression alone"
else fail spill-07 "baseline with the same spill count: rc $(rc m2): $(grep -v '^\s*$' m2.out | head -3 | tr '\n' '|')"; fi

# spill-08: a code object has no spill comments: --max-loop-spills cannot judge it (exit 2), never 0.
hipcc --offload-arch=gfx90a -O3 --cuda-device-only --no-gpu-bundle-output -c spill_depths.hip -o sd.hsaco 2> /dev/null
rs c gate sd.hsaco --max-loop-spills 0
if [ "$(rc c)" = 2 ] && grep -q 'spill accesses inside loops not read' c.out c.err; then pass spill-08 "a code object: CANNOT JUDGE --max-loop-spills (exit 2)"
else fail spill-08 "gate sd.hsaco --max-loop-spills 0: $(seen c) $(head -2 c.out | tr '\n' '|')"; fi

# NVIDIA (fixtures/spills/nvidia): each STL/LDL of a cubin at its line and loop depth, through
# nvdisasm. Where nvdisasm is not installed, a stand-in (a test double) prints the listing the real
# one printed on the GPU machine for the same cubin, found by its bytes, and refuses -plr as
# nvdisasm 12.8 refuses Triton's 255-register kernels: lines and loop depths without liveness.
NV="$SRC/fixtures/spills/nvidia"
REAL_NVDISASM=$(command -v nvdisasm 2>/dev/null || { [ -x /usr/local/cuda/bin/nvdisasm ] && echo /usr/local/cuda/bin/nvdisasm; })
mkdir -p nvfake
cat > nvfake/nvdisasm <<X
#!/bin/bash
# Stand-in for nvdisasm (a test double): the GPU machine's real -gi listing of the same cubin.
for c in "$NV"/*.cubin; do
  if cmp -s "\${@: -1}" "\$c"; then
    case "\$2" in -gi) cat "\${c%.cubin}.gi.txt"; exit 0 ;; *) echo "nvdisasm fatal   : Invalid register count : '255'" >&2; exit 1 ;; esac
  fi
done
echo "stand-in nvdisasm: no recorded listing for \${@: -1}" >&2; exit 1
X
chmod +x nvfake/nvdisasm
cp "$NV"/*.cubin .
if [ -n "$REAL_NVDISASM" ]; then nvpath=$PATH; else nvpath=$PWD/nvfake:$PATH; fi

# spill-09: explain on a cubin: the inner loop's local loads first, at depth 2, at the inner loop's line.
inner=$(grep -n 'acc += b\[i\]' "$NV/spill_depths.cu" | cut -d: -f1)
PATH=$nvpath rs x explain spill_depths.sm_90.cubin --kernel spill_depths --format json
# (the deepest sites come first; most of them are at the inner loop's line)
got=$(jget x.out "(lambda s: (s[0]['loop_depth'], max(set(l := [x['line'] for x in s if x['loop_depth'] == 2]), key=l.count), s[0]['kind']))(d['kernels'][0]['spills'])" 2>/dev/null)
if [ "$(rc x)" = 0 ] && [ "$got" = "(2, $inner, 'local_load')" ]; then pass spill-09 "cubin: local loads at depth 2 first, most at the inner loop's line $inner"
else fail spill-09 "explain on spill_depths.sm_90.cubin: got $got, expected (2, $inner, 'local_load'); $(seen x)"; fi

# spill-10: the gate on cubins: local memory outside the loop passes --max-loop-spills 0; inside it fails.
PATH=$nvpath rs no gate moved.sm_90.cubin --max-loop-spills 0
PATH=$nvpath rs ni gate moved-in-loop.sm_90.cubin --max-loop-spills 0
if [ "$(rc no)" = 0 ] && [ "$(rc ni)" = 1 ] && grep -q 'max-loop-spills: spills inside loops [0-9]* accesses > 0' ni.out; then
  pass spill-10 "cubins: outside the loop passes, $(grep -o 'spills inside loops [0-9]* accesses' ni.out | head -1) fails"
else fail spill-10 "gate on moved/moved-in-loop cubins: rc $(rc no)/$(rc ni); $(seen ni) $(head -2 ni.out | tr '\n' '|')"; fi

# spill-11: without nvdisasm a cubin with local memory cannot be judged on loop spills (exit 2), never 0.
if [ -z "$REAL_NVDISASM" ]; then
  rs nn gate moved.sm_90.cubin --max-loop-spills 0
  if [ "$(rc nn)" = 2 ] && grep -q 'spill accesses inside loops not read' nn.out nn.err; then pass spill-11 "a cubin without nvdisasm: CANNOT JUDGE --max-loop-spills (exit 2)"
  else fail spill-11 "gate moved.sm_90.cubin without nvdisasm: $(seen nn) $(head -2 nn.out | tr '\n' '|')"; fi
else skip spill-11 "nvdisasm is installed here ($REAL_NVDISASM): the missing-nvdisasm case is checked where it is not"; fi
