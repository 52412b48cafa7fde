// ptoverify stub: the declarations live in ptoverify_ptoisa.h
