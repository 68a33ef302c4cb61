#!/bin/bash
# Run on the GPU machine with the stripped, xz-compressed static regscope, liblz4 and libzstd
# carried in .gl/ (with compare-res-usage.py): `bash scripts/bench-libtorch.sh` from the checkout.
# With .gl/regscope-old.xz (the build before a change) beside it, that one runs too, and the
# outputs of the two are compared byte for byte.
# libtorch_cuda.so: regscope parse on 2 cores against cuobjdump -res-usage (issue 31 item 1)
set -u
G=$PWD/.gl; O=$OUT; cd /tmp
xz -dc $G/regscope.xz > rs && chmod +x rs
builds="rs"
if [ -f $G/regscope-old.xz ]; then xz -dc $G/regscope-old.xz > rs-old && chmod +x rs-old; builds="rs-old rs"; fi
export LD_LIBRARY_PATH=$G
LIB=$(find /opt -name libtorch_cuda.so 2>/dev/null | head -1)
{ echo "lib: $LIB"; ls -la "$LIB"; python3 -c "import torch;print('torch', torch.__version__, 'cuda', torch.version.cuda)"; echo "cores: $(nproc)"; uptime; cuobjdump --version | tail -2; ./rs --version; } 2>&1 | tee $O/env.txt
s=$(date +%s.%N); cuobjdump -res-usage "$LIB" > cuo.txt 2> cuo.err; echo "cuobjdump -res-usage (one process): rc=$? $(python3 -c "import time;print(round(time.time()-$s,2))") s" | tee $O/times.txt
s=$(date +%s.%N); taskset -c 0,1 cuobjdump -res-usage "$LIB" > /dev/null 2>&1; echo "cuobjdump -res-usage pinned to 2 cores: $(python3 -c "import time;print(round(time.time()-$s,2))") s" | tee -a $O/times.txt
for b in $builds; do for fmt in json text; do for run in 1 2 3; do
 /usr/bin/time -v -o t.txt taskset -c 0,1 ./$b parse "$LIB" -j 2 --format $fmt --progress never > $b.$fmt 2> $b.err; rc=$?
 echo "$b parse --format $fmt -j 2 on 2 cores, run $run: rc=$rc $(grep -E 'Elapsed' t.txt | sed 's/.*: //') wall, $(grep 'User time' t.txt | sed 's/.*: //') user, max RSS $(grep 'Maximum resident' t.txt | sed 's/.*: //') KB" | tee -a $O/times.txt
done; done
/usr/bin/time -v -o t.txt taskset -c 0,1 ./$b parse "$LIB" -j 2 --top 10 --progress never > $b.top.txt 2> top.err; echo "$b parse --top 10: $(grep -E 'Elapsed' t.txt | sed 's/.*: //') wall, max RSS $(grep 'Maximum resident' t.txt | sed 's/.*: //') KB" | tee -a $O/times.txt
done
cp rs.top.txt $O/top.txt; cp top.err $O/; wc -l rs.err | tee -a $O/times.txt; cp rs.err $O/parse-stderr.txt
if [ -f rs-old.json ]; then for f in json text top.txt; do cmp rs-old.$f rs.$f > /dev/null && echo "$f: the two builds' outputs are identical" || echo "$f: the two builds' outputs differ ($(diff rs-old.$f rs.$f | grep -c '^[<>]') lines)"; done | tee -a $O/times.txt; diff rs-old.text rs.text | head -40 > $O/text-diff.txt; fi
awk '{ if (length($0) > m) m = length($0) } END { print "text table: widest line " m " columns" }' rs.text | tee -a $O/times.txt
python3 $G/compare-res-usage.py rs.json cuo.txt | tee $O/compare.txt
