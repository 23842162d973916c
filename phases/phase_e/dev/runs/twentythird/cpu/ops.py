# Opcode histogram of the kernels whose mangled name contains PATTERN, in a cuobjdump -sass dump.
#   python3 ops.py DUMP.sass PATTERN
import re,collections,sys
txt=open(sys.argv[1]).read()
pat=sys.argv[2]
funcs=re.split(r'\n\s*Function : ', txt)
for f in funcs[1:]:
    name=f.split('\n',1)[0]
    if pat not in name: continue
    ops=collections.Counter()
    for m in re.finditer(r'/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)', f):
        ops[m.group(1).split('.')[0]]+=1
    print(name[40:140])
    print('  ', {k:ops.get(k,0) for k in ['HGMMA','STSM','LDL','STL','BAR','WARPSYNC','MUFU','FENCE','UTMALDG','UTMASTG','WARPGROUP','SHFL','R2UR','STS']})
    print('  ', dict(collections.Counter(re.findall(r'HGMMA\.(\S+)', f))))
