# Sources named through variables, a source compiled and linked with objects in one command
# (written for this test).
# ferry-hip-was N=1 M=1 h=a653021f
# | HIPCC = /opt/rocm/bin/hipcc
HIPCC = nvcc
SOURCES = main.cpp
SRCS = $(SOURCES)
OBJS = helper.o

app: $(OBJS)
# ferry-hip-was N=1 M=1 h=b41629a8
# | 	$(HIPCC) -O3 $(SRCS) -o $@
	$(HIPCC) -x cu -O3 $(SRCS) -o $@

app2: main.cpp helper.o
# ferry-hip-was N=1 M=1 h=2c363d16
# | 	$(HIPCC) -O3 -o $@ $< $(OBJS)
	$(HIPCC) -x cu -c -O3 $< -o $@.ferry.o && $(HIPCC) -O3 -o $@ $@.ferry.o $(OBJS)

helper.o: helper.cpp
# ferry-hip-was N=1 M=1 h=3778611a
# | 	$(HIPCC) -O3 -c $< -o $@
	$(HIPCC) -x cu -O3 -c $< -o $@
