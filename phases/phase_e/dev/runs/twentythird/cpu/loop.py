# Opcode counts of the innermost loop that holds HGMMA and at least 64 MUFU (the overlapped step) of
# the kernels whose mangled name contains PATTERN, in a cuobjdump -sass dump (twenty-third session).
#   python3 loop.py DUMP.sass PATTERN
import re,collections,sys
txt=open(sys.argv[1]).read(); pat=sys.argv[2]
for f in re.split(r'\n\s*Function : ', txt)[1:]:
    name=f.split('\n',1)[0]
    if pat not in name: continue
    ins=[]
    for l in f.split('\n'):
        m=re.search(r'/\*([0-9a-f]{4,})\*/\s+(.*?);',l)
        if m: ins.append((int(m.group(1),16), m.group(2).strip()))
    addr={a:i for i,(a,_) in enumerate(ins)}
    # loops: backward branches whose body contains HGMMA; take the one with most HGMMA
    best=None
    for i,(a,t) in enumerate(ins):
        m=re.search(r'BRA (0x[0-9a-f]+)',t)
        if m and int(m.group(1),16)<a:
            j=addr.get(int(m.group(1),16))
            if j is None: continue
            body=ins[j:i+1]
            h=sum('HGMMA' in x for _,x in body)
            mu=sum('MUFU' in x for _,x in body)
            if h and mu>=64 and (best is None or len(body)<len(best[1])): best=(h,body)
    h,body=best
    ops=collections.Counter(re.sub(r'^@!?U?P\w+\s+','',x).split()[0].split('.')[0] for _,x in body)
    tot=len(body)
    print(name[60:120], 'loop instrs', tot, 'HGMMA',h, 'MUFU',ops['MUFU'], 'non-MUFU,non-HGMMA', tot-ops['MUFU']-h)
    print('  ', ops.most_common(14))
