#!/bin/bash
# Run on the GPU machine with the stripped, xz-compressed static regscope, liblz4 and libzstd
# carried in .gl/ (with compare-res-usage.py): `bash scripts/bench-libtorch.sh` from the checkout.
# libtorch_cuda.so: regscope parse on 2 cores against cuobjdump -res-usage (issue 31 item 1)
set -u
G=$PWD/.gl; O=$OUT; cd /tmp
xz -dc $G/regscope.xz > rs && chmod +x rs
export LD_LIBRARY_PATH=$G
LIB=$(find /opt -name libtorch_cuda.so 2>/dev/null | head -1)
{ echo "lib: $LIB"; ls -la "$LIB"; python3 -c "import torch;print('torch', torch.__version__, 'cuda', torch.version.cuda)"; echo "cores: $(nproc)"; uptime; cuobjdump --version | tail -2; ./rs --version; } 2>&1 | tee $O/env.txt
s=$(date +%s.%N); cuobjdump -res-usage "$LIB" > cuo.txt 2> cuo.err; echo "cuobjdump -res-usage (one process): rc=$? $(python3 -c "import time;print(round(time.time()-$s,2))") s" | tee $O/times.txt
s=$(date +%s.%N); taskset -c 0,1 cuobjdump -res-usage "$LIB" > /dev/null 2>&1; echo "cuobjdump -res-usage pinned to 2 cores: $(python3 -c "import time;print(round(time.time()-$s,2))") s" | tee -a $O/times.txt
for fmt in json text; do for run in 1 2 3; do
 /usr/bin/time -v -o t.txt taskset -c 0,1 ./rs parse "$LIB" -j 2 --format $fmt --progress never > rs.$fmt 2> rs.err; rc=$?
 echo "regscope parse --format $fmt -j 2 on 2 cores, run $run: rc=$rc $(grep -E 'Elapsed' t.txt | sed 's/.*: //') wall, $(grep 'User time' t.txt | sed 's/.*: //') user, max RSS $(grep 'Maximum resident' t.txt | sed 's/.*: //') KB" | tee -a $O/times.txt
done; done
/usr/bin/time -v -o t.txt taskset -c 0,1 ./rs parse "$LIB" -j 2 --top 10 --progress never > top.txt 2> top.err; echo "parse --top 10: $(grep -E 'Elapsed' t.txt | sed 's/.*: //') wall, max RSS $(grep 'Maximum resident' t.txt | sed 's/.*: //') KB" | tee -a $O/times.txt
cp top.txt top.err $O/; wc -l rs.err | tee -a $O/times.txt; cp rs.err $O/parse-stderr.txt
python3 $G/compare-res-usage.py rs.json cuo.txt | tee $O/compare.txt
