"""Stall samples of an ncu source-page CSV (--page source --print-source sass --csv) summed by SASS
opcode: python3 stalls_by_opcode.py FILE.csv (dev tool; NOTES.md, "Where the stalls are")."""
import csv,io,sys,collections,signal
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under | head
txt=open(sys.argv[1]).read()
i=txt.index('"Address"'); txt=txt[i:]
rows=list(csv.reader(io.StringIO(txt)))
hdr=rows[0]; idx={h:k for k,h in enumerate(hdr)}
data=[r for r in rows[1:] if len(r)==len(hdr)]
agg=collections.defaultdict(lambda: collections.Counter())
for r in data:
    op=r[idx['Source']].strip().split()[0] if r[idx['Source']].strip() else '?'
    if op.startswith('@'): op=r[idx['Source']].strip().split()[1]
    op=op.split('.')[0]
    for s in ('stall_wait','stall_selected','stall_not_selected','stall_long_sb','stall_dispatch','stall_barrier','stall_mio','stall_short_sb','stall_math'):
        agg[op][s]+=int(r[idx[s]])
    agg[op]['all']+=int(r[idx['Warp Stall Sampling (All Samples)']])
    agg[op]['n']+=1
    agg[op]['ex']+=int(r[idx['Instructions Executed']])
tot=sum(a['all'] for a in agg.values())
print('op      n    ex(M)   all%   wait  sel  notsel longsb disp  bar  mio  shsb  math')
for op,a in sorted(agg.items(),key=lambda x:-x[1]['all'])[:22]:
    print(f"{op:8s}{a['n']:4d} {a['ex']/1e6:7.2f} {100*a['all']/tot:5.1f} "+' '.join(f"{a[s]:5d}" for s in ('stall_wait','stall_selected','stall_not_selected','stall_long_sb','stall_dispatch','stall_barrier','stall_mio','stall_short_sb','stall_math')))
